import { injectable } from 'inversify'
import { UnauthenticatedError } from '@idplane/common'
import { hashToken, tokenMatchesHash } from '../../infra/crypto/token-hash'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { ModuleRegistry } from '../../infra/module-registry'
import { AgentRuntime } from '../../agent-runtime/agent-runtime'
import { AgentEventsRepository } from './agent-events.repository'
import { AgentsRepository } from './agents.repository'

/**
 * Receives agents' events (DESIGN.md, "Events and webhooks"): the per-agent token names the organization,
 * and an event id is stored once per organization, so at-least-once delivery is applied exactly once.
 */
@injectable()
export class AgentEventsService {
  public constructor(
    private readonly agents: AgentsRepository,
    private readonly events: AgentEventsRepository,
    private readonly modules: ModuleRegistry,
    private readonly runtime: AgentRuntime,
  ) {}

  /**
   * The agent holding `token` answers GET /agent now (its readiness announcement): the runtime's wait for it, if
   * this API process has one, confirms at once. A hint only: nothing is stored, and an agent that no wait here
   * expects (another replica provisions it, or it is long ready) changes nothing.
   * @returns whether a wait was woken
   * @throws UnauthenticatedError for a missing or unknown token
   */
  public async announceReady(token: string | undefined): Promise<boolean> {
    const orgId = await this.authenticate(token)
    return this.runtime.announceReady(orgId)
  }

  /**
   * The organization whose agent holds `token`.
   * @throws UnauthenticatedError for a missing or unknown token
   */
  public async authenticate(token: string | undefined): Promise<string> {
    if (!token) throw new UnauthenticatedError('Agent event token required')
    const row = await this.agents.findByEventTokenHash(hashToken(token))
    if (!row || !tokenMatchesHash(token, row.eventTokenHash))
      throw new UnauthenticatedError('Invalid agent event token')
    return row.organizationId
  }

  /**
   * Stores the event unless its id was seen for this organization, and applies a new one with the handlers the
   * modules declare for its kind, in the same transaction (a handler failure leaves it unstored, to be sent
   * again); true when it was new.
   */
  public async record(orgId: string, event: AgentEvent): Promise<boolean> {
    const [isNew] = await this.applyInOne(orgId, [event])
    return isNew
  }

  /**
   * `record` for each event of a batch, in order; per event whether it was new. The batch is applied in one
   * transaction (one commit instead of one per event; with the embedded database every commit syncs on the API's
   * thread), its events stored by one statement and its platform events handed to the listeners at once (one insert
   * of webhook deliveries). When that fails it is rolled back whole and applied again one transaction per event, so
   * the events before a failing one are kept and the failure is thrown as `record` throws it.
   */
  public async recordAll(orgId: string, events: readonly AgentEvent[]): Promise<boolean[]> {
    if (events.length > 1) {
      try {
        return await this.applyInOne(orgId, events)
      } catch {
        // Applied again below, one at a time: the same failure is thrown there, after the events before it.
      }
    }
    const results: boolean[] = []
    for (const event of events) results.push(await this.record(orgId, event))
    return results
  }

  /** Stores and applies `events` in one transaction, in order; per event whether it was new. */
  private applyInOne(orgId: string, events: readonly AgentEvent[]): Promise<boolean[]> {
    return this.events.transactional(() =>
      this.modules.publishingTogether(async () => {
        const stored = await this.events.insertNew(orgId, events)
        const results: boolean[] = []
        for (const event of events) {
          // An id twice in one batch is new once: deleting it from `stored` makes its second occurrence a duplicate.
          const isNew = stored.delete(event.id)
          if (isNew) await this.modules.dispatch(orgId, event)
          results.push(isNew)
        }
        return results
      }),
    )
  }
}
