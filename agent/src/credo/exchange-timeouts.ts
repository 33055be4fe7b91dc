import { type AgentContext, type AgentContextProvider, InjectionSymbols } from '@credo-ts/core'
import type { Logger } from '@idplane/common'

import type { SqlClient } from '../adapters/sql/sql-client'
import { abandonExchange, type ExchangeKind } from './abandon-exchange'

/**
 * The states in which this agent has sent its step and waits for the other agent's, which a running agent gives
 * without anyone's decision: the holder's request waiting for its credential, the issued credential waiting for its
 * acknowledgement, the presentation waiting for the verifier's. States that wait for a person (an offer or a proof
 * request not yet accepted) never time out.
 */
export const WAITING_STATES: Record<ExchangeKind, readonly string[]> = {
  credential: ['request-sent', 'credential-issued'],
  proof: ['presentation-sent'],
}

const RECORD_TYPES: Record<ExchangeKind, string> = { credential: 'CredentialRecord', proof: 'ProofRecord' }
const BATCH_SIZE = 50

interface StaleRow {
  context_id: string
  type: string
  id: string
  state: string
}

export interface ExchangeTimeoutsOptions {
  timeoutSeconds: number
  /** @default a quarter of the timeout, between 1 and 60 seconds */
  sweepIntervalMs?: number
}

/**
 * Ends exchanges that cannot progress (issue 23 item 6): one that stayed in a waiting state for longer than
 * AGENT_EXCHANGE_TIMEOUT_SECONDS goes to `abandoned` with the reason, in the base wallet and in every tenant, and
 * its state-changed event follows, so the platform's record and its webhooks do. The records are found with one
 * query over the agent's own table; each is then re-read in its context, and left alone if it moved meanwhile.
 */
export class ExchangeTimeouts {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = true

  public constructor(
    private readonly sql: SqlClient,
    private readonly contexts: () => AgentContextProvider,
    private readonly options: ExchangeTimeoutsOptions,
    private readonly logger: Logger,
  ) {}

  public start(): void {
    if (this.options.timeoutSeconds <= 0) return
    this.stopped = false
    this.schedule()
  }

  public async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
  }

  /** One sweep: every exchange past the timeout ends. Returns how many did. */
  public async sweep(): Promise<number> {
    const { timeoutSeconds } = this.options
    const { rows } = await this.sql.query<StaleRow>(
      `SELECT context_id, type, id, value->>'state' AS state FROM records
       WHERE ((type = $1 AND value->>'state' = ANY($2::text[])) OR (type = $3 AND value->>'state' = ANY($4::text[])))
         AND (value->>'updatedAt')::timestamptz < now() - ($5::text || ' seconds')::interval
       ORDER BY seq LIMIT $6`,
      [
        RECORD_TYPES.credential,
        WAITING_STATES.credential,
        RECORD_TYPES.proof,
        WAITING_STATES.proof,
        String(timeoutSeconds),
        BATCH_SIZE,
      ],
    )
    let ended = 0
    for (const row of rows) {
      const kind: ExchangeKind = row.type === RECORD_TYPES.credential ? 'credential' : 'proof'
      const reason =
        `No answer from the other agent for ${timeoutSeconds} seconds in state ${row.state} ` +
        `(AGENT_EXCHANGE_TIMEOUT_SECONDS): the exchange cannot progress`
      try {
        if (await this.end(row, kind, reason)) ended++
      } catch (error) {
        this.logger.warn('An exchange past its timeout could not be ended', { recordId: row.id, error })
      }
    }
    return ended
  }

  private async end(row: StaleRow, kind: ExchangeKind, reason: string): Promise<boolean> {
    const provider = this.contexts()
    const agentContext: AgentContext = await provider.getAgentContextForContextCorrelationId(row.context_id)
    try {
      const ended = await abandonExchange(agentContext, kind, row.id, reason, (record) => {
        const waitedMs = Date.now() - (record.updatedAt ?? record.createdAt).getTime()
        return record.state === row.state && waitedMs >= this.options.timeoutSeconds * 1000
      })
      if (ended) this.logger.info('Ended an exchange past its timeout', { kind, recordId: row.id, state: row.state })
      return ended !== undefined
    } finally {
      await provider.endSessionForAgentContext(agentContext)
    }
  }

  private schedule(): void {
    if (this.stopped) return
    const interval =
      this.options.sweepIntervalMs ?? Math.min(60_000, Math.max(1000, (this.options.timeoutSeconds * 1000) / 4))
    this.timer = setTimeout(() => {
      this.running = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn('Exchange timeout sweep failed', { error }))
        .finally(() => this.schedule())
    }, interval)
    this.timer.unref()
  }
}

/** The agent's context provider (base wallet and tenants). */
export function contextProviderOf(agent: {
  dependencyManager: { resolve<T>(token: symbol): T }
}): AgentContextProvider {
  return agent.dependencyManager.resolve<AgentContextProvider>(InjectionSymbols.AgentContextProvider)
}
