import { injectable } from 'inversify'
import type { AgentEventHandler, AppliedAgentEvent } from '../../infra/api-module'
import { CredentialRecordsService, type AgentExchangeReport } from './credential-records.service'
import { isKnownState } from './credential.states'

function text(value: unknown, maxLength: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined
}

function instant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/**
 * The agent's report in a `credential` event (the Credo credential exchange record's JSON), or undefined when
 * the event names no record or a state this module does not know (nothing to apply).
 */
export function reportOf(event: AppliedAgentEvent): AgentExchangeReport | undefined {
  const record = event.record
  const credentialRecordId = text(record.id, 100)
  const state = text(record.state, 40)
  if (!credentialRecordId || !state || !isKnownState(state)) return undefined
  const occurredAt = instant(event.occurredAt) ?? new Date()
  return {
    credentialRecordId,
    state,
    at: instant(record.updatedAt) ?? instant(record.createdAt) ?? occurredAt,
    createdAt: instant(record.createdAt),
    role: text(record.role, 20),
    connectionId: text(record.connectionId, 100) ?? null,
    threadId: text(record.threadId, 100) ?? null,
    protocolVersion: text(record.protocolVersion, 10) ?? null,
    errorMessage: typeof record.errorMessage === 'string' ? record.errorMessage.slice(0, 10_000) : null,
  }
}

/**
 * Keeps the organization's issuance records from its agent's `credential` events. A cloud-wallet tenant's
 * exchanges (events with `tenantId`) are the holder's, not the organization's: not recorded here.
 */
@injectable()
export class CredentialEventsHandler implements AgentEventHandler {
  public constructor(private readonly records: CredentialRecordsService) {}

  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    if (event.tenantId !== undefined) return
    const report = reportOf(event)
    if (report) await this.records.apply(orgId, report)
  }
}
