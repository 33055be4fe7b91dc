import { inject, injectable } from 'inversify'
import { UpstreamError } from '@idplane/common'
import type { CredentialRecordJson } from '@idplane/common/agent-contract/admin-api'
import { ModuleRegistry } from '../../infra/module-registry'
import { OrgExchangeRecords, stateChangedType, type ExchangeReport } from '../../infra/records/exchange-records'
import { CredentialMetrics } from './credential-metrics'
import { issuanceReportOf, RECORD_DETAIL_KEYS, type IssuanceFields, type RecordDetails } from './credential.mapper'
import { CredentialRecord } from './credential.entity'
import { ISSUANCE_ORDER, isTerminalState } from './credential.states'
import { CredentialsRepository, type NewCredentialRecord } from './credentials.repository'
import { toCredentialRecordResponse } from './dto/credential.response'

/** The platform event type announcing an issuance record's new state (docs/api-usage.md, "Events"). */
export const CREDENTIAL_STATE_CHANGED = stateChangedType('credential')

/**
 * The organization's issuance records (spec: Credential issuance record; PREAMBLE: idempotent, in order, never
 * backwards), kept from its agent's `credential` events and from the agent's answers to offers
 * (infra/records/exchange-records.ts).
 */
@injectable()
export class CredentialRecords extends OrgExchangeRecords<CredentialRecord, IssuanceFields> {
  public constructor(
    records: CredentialsRepository,
    modules: ModuleRegistry,
    @inject(CredentialMetrics) metrics: CredentialMetrics,
  ) {
    super(
      {
        name: 'credential',
        order: ISSUANCE_ORDER,
        mapper: issuanceReportOf,
        store: {
          transactional: (work) => records.transactional(work),
          lockOrCreate: (orgId, report) => records.lockOrCreate(orgId, newIssuanceRow(report)),
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: writeIssuance,
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row) => ({ ...toCredentialRecordResponse(row) }),
        onAnnounced: (row) => metrics.stateChanges.inc({ state: row.state }),
      },
      modules,
    )
  }

  /**
   * Records the agent's answer to an offer with what the offer route knows of it, in the caller's transaction.
   * @throws UpstreamError when the answer is no credential exchange record
   */
  public async applyOffer(
    orgId: string,
    agentRecord: CredentialRecordJson,
    details: RecordDetails,
  ): Promise<CredentialRecord> {
    const applied = await this.applyRecord(orgId, agentRecord, undefined, details)
    if (!applied) throw new UpstreamError("The agent's answer carried no usable credential exchange record")
    return applied.row
  }
}

/**
 * A new row as its first report writes it (writeIssuance's `insert`), with the agent's creation time: inserted whole,
 * it needs no update after the insert.
 */
function newIssuanceRow(report: ExchangeReport<IssuanceFields>): NewCredentialRecord {
  const row = new CredentialRecord()
  writeIssuance(row, report, 'insert')
  const details = Object.fromEntries(RECORD_DETAIL_KEYS.map((key) => [key, row[key]]))
  return {
    ...details,
    credentialRecordId: report.recordId,
    createdAt: report.fields.createdAt,
    state: row.state,
    agentUpdatedAt: row.agentUpdatedAt,
    errorMessage: row.errorMessage,
    role: row.role,
    connectionId: row.connectionId,
    threadId: row.threadId,
    protocolVersion: row.protocolVersion,
  }
}

/**
 * A new state takes the report's state, version and (when terminal) error; facts that do not depend on the state
 * are filled in by the first report that knows them, whatever the decision.
 */
function writeIssuance(
  row: CredentialRecord,
  report: { state: string; versionAt: Date; fields: IssuanceFields },
  decision: string,
): void {
  const fields = report.fields
  if (decision === 'insert' || decision === 'advance') {
    row.state = report.state
    row.agentUpdatedAt = report.versionAt
    if (isTerminalState(report.state)) row.errorMessage = fields.errorMessage ?? row.errorMessage ?? null
  }
  row.role = fields.role ?? row.role
  row.connectionId ??= fields.connectionId ?? null
  row.threadId ??= fields.threadId ?? null
  row.protocolVersion ??= fields.protocolVersion ?? null
  for (const key of RECORD_DETAIL_KEYS) {
    const value = fields[key]
    if (value !== undefined && value !== null) (row as Record<typeof key, unknown>)[key] = value
  }
}
