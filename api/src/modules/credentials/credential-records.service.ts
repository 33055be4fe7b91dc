import { inject, injectable } from 'inversify'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import { CredentialMetrics } from './credential-metrics'
import { toCredentialRecordResponse } from './dto/credential.response'
import type { CredentialRecord } from './credential.entity'
import { isTerminalState, shouldApply } from './credential.states'
import { CredentialsRepository } from './credentials.repository'

/** The platform event type announcing an issuance record's new state (docs/api-usage.md, "Events"). */
export const CREDENTIAL_STATE_CHANGED = 'credential.state-changed'

/** The agent's view of one exchange: from an agent event, or from the agent's answer to an offer. */
export interface AgentExchangeReport {
  credentialRecordId: string
  state: string
  /** The agent record's `updatedAt` (its `createdAt` for a new one, or the event's time). */
  at: Date
  createdAt?: Date
  role?: string
  connectionId?: string | null
  threadId?: string | null
  protocolVersion?: string | null
  errorMessage?: string | null
}

/** What the platform adds to a record it created itself (offer routes), never overwritten by events. */
export type RecordDetails = Partial<
  Pick<
    CredentialRecord,
    'credentialSummary' | 'schemaId' | 'credentialDefinitionId' | 'outOfBandId' | 'emailId' | 'credentialType'
  >
>

/**
 * Applies agent reports to issuance records (spec: Credential issuance record; PREAMBLE: idempotent, in order,
 * never backwards) and announces each actual change with one `credential.state-changed` event, in the caller's
 * transaction.
 */
@injectable()
export class CredentialRecordsService {
  public constructor(
    private readonly records: CredentialsRepository,
    private readonly modules: ModuleRegistry,
    @inject(CredentialMetrics) private readonly metrics: CredentialMetrics,
  ) {}

  /** Call inside a transaction (the agent-event route's, or `records.transactional`). */
  public async apply(
    orgId: string,
    report: AgentExchangeReport,
    details: RecordDetails = {},
  ): Promise<CredentialRecord> {
    const { record, isNew } = await this.records.lockOrCreate(orgId, {
      credentialRecordId: report.credentialRecordId,
      state: report.state,
      agentUpdatedAt: report.at,
      createdAt: report.createdAt,
    })
    const isChange =
      isNew || shouldApply({ state: record.state, at: record.agentUpdatedAt }, { state: report.state, at: report.at })
    if (isChange) {
      record.state = report.state
      record.agentUpdatedAt = report.at
      if (isTerminalState(report.state)) record.errorMessage = report.errorMessage ?? record.errorMessage ?? null
    }
    // Facts that do not depend on the state: the first report that knows them fills them in.
    record.role = report.role ?? record.role
    record.connectionId ??= report.connectionId ?? null
    record.threadId ??= report.threadId ?? null
    record.protocolVersion ??= report.protocolVersion ?? null
    for (const [key, value] of Object.entries(details) as [keyof RecordDetails, never][]) {
      if (value !== undefined && value !== null) record[key] = value
    }
    await this.records.flush()
    if (isChange) {
      this.metrics.stateChanges.inc({ state: record.state })
      await this.modules.publish([
        platformEvent(CREDENTIAL_STATE_CHANGED, { orgId }, { ...toCredentialRecordResponse(record) }),
      ])
    }
    return record
  }
}
