import { injectable } from 'inversify'
import { Body, HeaderParam, HttpCode, JsonController, Post } from 'routing-controllers'
import { InvalidInputError } from '@idplane/common'
import { AGENT_READY_SUFFIX, BASE_WALLET_EVENTS_PATH, parseAgentEventBody } from '@idplane/common/agent-contract/events'
import { ok, type Envelope } from '../../infra/http/envelope'
import { WalletEventsService } from './wallet-events.service'

interface EventResult {
  id: string
  /** True when the event changed nothing: a repeat, a stale report, or not a wallet's record. */
  isDuplicate: boolean
}

/**
 * Internal: the base agent posts its tenants' events here (the agent event envelope, one or a batch), with the
 * base wallet's API key as bearer token. Hidden from the explorer (under /v1/internal). The token is checked
 * before the body; a batch is checked whole before any event of it is applied, so a 400 applies nothing.
 */
@injectable()
@JsonController(BASE_WALLET_EVENTS_PATH)
export class WalletEventsController {
  public constructor(private readonly events: WalletEventsService) {}

  @Post()
  @HttpCode(200)
  async receive(
    @HeaderParam('authorization') authorization: string,
    @Body({ validate: false }) body: unknown,
  ): Promise<Envelope<EventResult | { results: EventResult[] }>> {
    const header = /^Bearer (\S+)$/.exec(authorization ?? '')
    await this.events.authenticate(header?.[1])
    const parsed = parseAgentEventBody(body)
    if (!parsed.ok) throw new InvalidInputError('Invalid agent event', parsed.errors)
    const results: EventResult[] = []
    // In order: a batch holds one agent's events as they happened.
    for (const event of parsed.events) {
      results.push({ id: event.id, isDuplicate: !(await this.events.record(event)) })
    }
    if (parsed.isBatch) {
      return ok({ results }, `${results.filter((result) => !result.isDuplicate).length} events applied`)
    }
    const [result] = results
    return ok(result, result.isDuplicate ? 'Event already applied' : 'Event applied')
  }

  /** The base agent's readiness announcement (as AgentEventsController's): its start waits no poll interval. */
  @Post(AGENT_READY_SUFFIX)
  @HttpCode(200)
  async ready(@HeaderParam('authorization') authorization: string): Promise<Envelope<{ isAwaited: boolean }>> {
    const header = /^Bearer (\S+)$/.exec(authorization ?? '')
    const isAwaited = await this.events.announceReady(header?.[1])
    return ok({ isAwaited }, isAwaited ? 'Readiness noted' : 'Readiness noted; nothing was waiting for it')
  }
}
