import { injectable } from 'inversify'
import { Body, HeaderParam, HttpCode, JsonController, Post } from 'routing-controllers'
import { InvalidInputError } from '@idplane/common'
import { AGENT_EVENTS_PATH, AGENT_READY_SUFFIX, parseAgentEventBody } from '@idplane/common/agent-contract/events'
import { ok, type Envelope } from '../../infra/http/envelope'
import { AgentEventsService } from './agent-events.service'

interface EventResult {
  id: string
  isDuplicate: boolean
}

interface ReadyResult {
  /** True when this API process was waiting for the agent and checks GET /agent now. */
  isAwaited: boolean
}

/**
 * Internal: agents post their events here with their event token (DESIGN.md, "Events and webhooks"): one event
 * object, or `{ events: [...] }` with up to 100 (common/agent-contract/events.ts; docs/agent.md, Events). Hidden
 * from the explorer (paths under /v1/internal). The token is checked before the body is looked at; a batch is
 * checked whole before any event of it is stored, so a 400 stores nothing; it is applied in one transaction
 * (AgentEventsService.recordAll).
 */
@injectable()
@JsonController(AGENT_EVENTS_PATH)
export class AgentEventsController {
  public constructor(private readonly events: AgentEventsService) {}

  @Post()
  @HttpCode(200)
  async receive(
    @HeaderParam('authorization') authorization: string,
    @Body({ validate: false }) body: unknown,
  ): Promise<Envelope<EventResult | { results: EventResult[] }>> {
    const header = /^Bearer (\S+)$/.exec(authorization ?? '')
    const orgId = await this.events.authenticate(header?.[1])
    const parsed = parseAgentEventBody(body)
    if (!parsed.ok) throw new InvalidInputError('Invalid agent event', parsed.errors)
    const isNew = await this.events.recordAll(orgId, parsed.events)
    const results: EventResult[] = parsed.events.map((event, index) => ({ id: event.id, isDuplicate: !isNew[index] }))
    if (parsed.isBatch) {
      return ok({ results }, `${results.filter((result) => !result.isDuplicate).length} events recorded`)
    }
    const [result] = results
    return ok(result, result.isDuplicate ? 'Event already recorded' : 'Event recorded')
  }

  /**
   * The agent's readiness announcement (AGENT_READY_SUFFIX): provisioning confirms GET /agent now instead of at
   * its next poll. Any body is ignored; the token is all it needs.
   */
  @Post(AGENT_READY_SUFFIX)
  @HttpCode(200)
  async ready(@HeaderParam('authorization') authorization: string): Promise<Envelope<ReadyResult>> {
    const header = /^Bearer (\S+)$/.exec(authorization ?? '')
    const isAwaited = await this.events.announceReady(header?.[1])
    return ok({ isAwaited }, isAwaited ? 'Readiness noted' : 'Readiness noted; nothing was waiting for it')
  }
}
