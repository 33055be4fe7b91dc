import { injectable } from 'inversify'
import { Logger } from '@idplane/common'
import { ModuleRegistry } from '../../infra/module-registry'
import { OrgExchangeRecords, stateChangedType } from '../../infra/records/exchange-records'
import { toProofResponse } from './dto/proof.response'
import { proofReportOf, type ProofReportFields } from './proof.mapper'
import { ProofMetrics } from './proof-metrics'
import type { ProofRecord } from './proof.entity'
import { PROOF_ORDER } from './proof.states'
import { ProofsRepository } from './proofs.repository'

/** The platform event announcing each new state of a proof record (docs/api-usage.md, "Events"). */
export const PROOF_STATE_CHANGED = stateChangedType('proof')

/**
 * The organization's proof records, kept from its agent's `proof` events and from the agent's answers to the
 * proof routes (infra/records/exchange-records.ts).
 */
@injectable()
export class ProofRecords extends OrgExchangeRecords<ProofRecord, ProofReportFields> {
  private readonly logger: Logger

  public constructor(records: ProofsRepository, modules: ModuleRegistry, metrics: ProofMetrics, logger: Logger) {
    super(
      {
        name: 'proof',
        order: PROOF_ORDER,
        mapper: proofReportOf,
        store: {
          transactional: (work) => records.transactional(work),
          // Null for an id of another organization's record.
          lockOrCreate: (orgId, report) => {
            const { requestType, outOfBandId, ...fields } = report.fields
            return records.lockOrCreate(orgId, fields, { requestType, outOfBandId })
          },
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: (row, report, decision) => {
          const fields = report.fields
          if (decision === 'advance' || decision === 'refresh') {
            row.state = fields.state
            row.agentUpdatedAt = fields.agentUpdatedAt
            row.connectionId = fields.connectionId ?? row.connectionId
            row.isVerified = fields.isVerified ?? row.isVerified
            row.errorMessage = fields.errorMessage ?? row.errorMessage
          }
          // The creating request knows what the agent's events do not: fill those in whenever they arrive.
          if (fields.requestType && !row.requestType) row.requestType = fields.requestType
          if (fields.outOfBandId && !row.outOfBandId) row.outOfBandId = fields.outOfBandId
        },
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row) => ({ ...toProofResponse(row) }),
        onAnnounced: (row) => metrics.stateChanges.inc({ state: row.state }),
        onUnusable: (orgId) =>
          this.logger.warn('Ignored a proof event whose record lacks id, state or threadId', { orgId }),
      },
      modules,
    )
    this.logger = logger.child({ component: 'proof-records' })
  }
}
