import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import type { AgentEventHandler, AppliedAgentEvent } from '../../infra/api-module'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import { CONNECTION_TEXT_LIMITS, type Connection } from './connection.entity'
import { CONNECTION_ORDER } from './connection.states'
import { ConnectionMetrics } from './connection-metrics'
import { ConnectionsRepository } from './connections.repository'
import { toConnectionDetail } from './dto/connection.response'
import { decideUpdate, textOf, versionTimeOf } from './record-order'

/** The platform event announcing a connection's new state; `record` is the connection as a single read shows it. */
export const CONNECTION_STATE_CHANGED = 'connection.state-changed'

/**
 * Keeps an organization's connection records in step with its agent's (the ordering rule: record-order.ts), from
 * the agent's `connection` events and from the records the agent answers to our calls; publishes
 * `connection.state-changed` once per state a record enters.
 */
@injectable()
export class ConnectionRecords implements AgentEventHandler {
  public constructor(
    private readonly connections: ConnectionsRepository,
    private readonly modules: ModuleRegistry,
    private readonly metrics: ConnectionMetrics,
  ) {}

  /** Agent event handler: runs in the transaction that stores the event. */
  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    // Cloud-wallet tenants' connections are not the organization's (the cloud-wallet module keeps those).
    if (event.tenantId !== undefined) return
    await this.apply(orgId, event.record, event.occurredAt)
  }

  /**
   * Applies a record the agent answered to a call, in a transaction of its own. An event for the same new record
   * may be inserting it at the same moment: the losing insert is retried once, and then finds the row.
   */
  public async applyAnswered(orgId: string, record: Record<string, unknown>): Promise<Connection | null> {
    const attempt = () => this.connections.transactional(() => this.apply(orgId, record, new Date().toISOString()))
    try {
      return await attempt()
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return attempt()
      throw error
    }
  }

  /** Whether the agent's `record` is newer than the stored row (the ordering rule), without touching the row. */
  public wouldApply(stored: Connection, record: Record<string, unknown>): boolean {
    const state = textOf(record, 'state', CONNECTION_TEXT_LIMITS.state)
    if (!state) return false
    const incoming = { state, versionAt: versionTimeOf(record, new Date().toISOString()) }
    return (
      decideUpdate(CONNECTION_ORDER, { state: stored.state, versionAt: stored.agentUpdatedAt }, incoming) !== 'ignore'
    )
  }

  /** The record after applying `record`, or null when it was stale, a repeat or no connection record at all. */
  private async apply(orgId: string, record: Record<string, unknown>, occurredAt: string): Promise<Connection | null> {
    const connectionId = textOf(record, 'id', CONNECTION_TEXT_LIMITS.id)
    const state = textOf(record, 'state', CONNECTION_TEXT_LIMITS.state)
    if (!connectionId || !state) return null
    const versionAt = versionTimeOf(record, occurredAt)
    const stored = await this.connections.findForUpdate(orgId, connectionId)
    if (!stored && (await this.wasDeleted(orgId, record, versionAt))) return null
    const decision = decideUpdate(
      CONNECTION_ORDER,
      stored && { state: stored.state, versionAt: stored.agentUpdatedAt },
      { state, versionAt },
    )
    if (decision === 'ignore') return stored
    const fields = fieldsOf(record, state, versionAt)
    const previousState = stored?.state
    const row = stored ?? this.connections.create(orgId, { connectionId, ...fields })
    if (stored) Object.assign(stored, fields)
    await this.connections.flush()
    if (previousState !== row.state) {
      this.metrics.stateChanges.inc({ state: row.state })
      await this.modules.publish([
        platformEvent(
          CONNECTION_STATE_CHANGED,
          { orgId },
          { ...toConnectionDetail(row), previousState: previousState ?? null },
        ),
      ])
    }
    return row
  }

  /** Whether the record was created before the organization's last delete-all (so it was deleted then). */
  private async wasDeleted(orgId: string, record: Record<string, unknown>, versionAt: Date): Promise<boolean> {
    const deletedBefore = await this.connections.deletedBefore(orgId)
    return deletedBefore !== undefined && agentCreatedAt(record, versionAt) < deletedBefore
  }
}

/** When the agent created the record; its version time when the record does not say. */
function agentCreatedAt(record: Record<string, unknown>, versionAt: Date): Date {
  const createdAt = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN
  return Number.isNaN(createdAt) ? versionAt : new Date(createdAt)
}

/** The columns a Credo connection record's JSON gives. */
function fieldsOf(record: Record<string, unknown>, state: string, versionAt: Date) {
  return {
    state,
    role: textOf(record, 'role', CONNECTION_TEXT_LIMITS.role),
    did: textOf(record, 'did', CONNECTION_TEXT_LIMITS.did),
    theirDid: textOf(record, 'theirDid', CONNECTION_TEXT_LIMITS.did),
    theirLabel: textOf(record, 'theirLabel', CONNECTION_TEXT_LIMITS.label),
    alias: textOf(record, 'alias', CONNECTION_TEXT_LIMITS.label),
    autoAcceptConnection: typeof record.autoAcceptConnection === 'boolean' ? record.autoAcceptConnection : null,
    protocol: textOf(record, 'protocol', CONNECTION_TEXT_LIMITS.protocol),
    outOfBandId: textOf(record, 'outOfBandId', CONNECTION_TEXT_LIMITS.id),
    threadId: textOf(record, 'threadId', CONNECTION_TEXT_LIMITS.id),
    agentCreatedAt: agentCreatedAt(record, versionAt),
    agentUpdatedAt: versionAt,
  }
}
