import { injectable, multiInject } from 'inversify'
import { Get, JsonController, Res } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { ok, type Envelope } from '../../infra/http/envelope'
import { TOKENS, type ReadinessCheck } from '../../infra/tokens'
import { ResponseData } from '../../infra/http/response-doc'
import { LIVENESS_SCHEMA, READINESS_SCHEMA } from './dto/health.response'

/** Only what the route needs of the response; an interface keeps decorator metadata a plain Object. */
interface StatusSetter {
  status(code: number): unknown
}

@injectable()
@JsonController('/health')
@OpenAPI({ tags: ['Health'] })
export class HealthController {
  public constructor(@multiInject(TOKENS.ReadinessChecks) private readonly checks: ReadinessCheck[]) {}

  /** The process is up (no dependency checks: a slow database must not get the pod restarted). */
  @Get('/live')
  @ResponseData(LIVENESS_SCHEMA)
  live(): Envelope<{ status: string }> {
    return ok({ status: 'up' }, 'Alive')
  }

  /**
   * Ready only when every required dependency answers (database and queue); a capability the API refuses on its
   * own (ledger writes) shows `degraded: <why>` without taking the API out of service.
   */
  @Get('/ready')
  @ResponseData(READINESS_SCHEMA, { alsoAnswers: [503] })
  async ready(@Res() res: StatusSetter): Promise<Envelope<Record<string, string>>> {
    const results = await Promise.all(
      this.checks.map(async (check) => ({ check, healthy: await check.isHealthy().catch(() => false) })),
    )
    const status = Object.fromEntries(results.map(({ check, healthy }) => [check.name, statusOf(check, healthy)]))
    const isReady = results.every(({ check, healthy }) => healthy || check.isRequired === false)
    res.status(isReady ? 200 : 503)
    return { ...ok(status, isReady ? 'Ready' : 'Not ready'), statusCode: isReady ? 200 : 503 }
  }
}

function statusOf(check: ReadinessCheck, healthy: boolean): string {
  if (healthy) return 'up'
  if (check.isRequired !== false) return 'down'
  const detail = check.detail?.()
  return detail ? `degraded: ${detail}` : 'degraded'
}
