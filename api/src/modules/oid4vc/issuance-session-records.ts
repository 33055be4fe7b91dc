import { injectable } from 'inversify'
import { Logger } from '@idplane/common'
import { ModuleRegistry } from '../../infra/module-registry'
import {
  type ExchangeOutcome,
  type ExchangeReport,
  OrgExchangeRecords,
  stateChangedType,
} from '../../infra/records/exchange-records'
import { CredentialsRepository } from '../credentials/credentials.repository'
import type { IssuanceSessionRecord } from './issuance-session.entity'
import {
  issuanceSessionReportOf,
  toIssuanceSessionEventRecord,
  type IssuanceSessionFields,
} from './issuance-session.mapper'
import { ISSUANCE_SESSION_ORDER } from './issuance-session.states'
import { IssuanceSessionsRepository } from './issuance-sessions.repository'
import { Oid4vcMetrics } from './oid4vc-metrics'

/** The kind of the organization's OID4VCI issuance sessions on the record kit. */
export const ISSUANCE_SESSION_KIND = 'oid4vc-issuance'

/** The platform event announcing each new state of an issuance session (docs/api-usage.md, "Events"). */
export const ISSUANCE_SESSION_STATE_CHANGED = stateChangedType(ISSUANCE_SESSION_KIND)

/**
 * The organization's OID4VCI issuance sessions, kept from its agent's `openid4vc-issuance` events
 * (infra/records/exchange-records.ts) for ordering, the state event and its webhook.
 */
@injectable()
export class IssuanceSessionRecords extends OrgExchangeRecords<IssuanceSessionRecord, IssuanceSessionFields> {
  private readonly logger: Logger

  public constructor(
    sessions: IssuanceSessionsRepository,
    private readonly credentials: CredentialsRepository,
    metrics: Oid4vcMetrics,
    modules: ModuleRegistry,
    logger: Logger,
  ) {
    super(
      {
        name: ISSUANCE_SESSION_KIND,
        order: ISSUANCE_SESSION_ORDER,
        mapper: issuanceSessionReportOf,
        store: {
          transactional: (work) => sessions.transactional(work),
          lockOrCreate: (orgId, report) => sessions.lockOrCreate(orgId, report.fields),
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: (row, report, decision) => {
          if (decision !== 'advance' && decision !== 'refresh') return
          const fields = report.fields
          row.state = fields.state
          row.agentUpdatedAt = fields.agentUpdatedAt
          row.issuedCredentials = fields.issuedCredentials
          row.errorMessage = fields.errorMessage ?? row.errorMessage
          row.expiresAt = fields.expiresAt ?? row.expiresAt
        },
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row) => ({ ...toIssuanceSessionEventRecord(row) }),
        onAnnounced: (row) => metrics.stateChanges.inc({ state: row.state }),
        onUnusable: (orgId) =>
          this.logger.warn('Ignored an issuance session event whose record lacks id, issuer or a known state', {
            orgId,
          }),
      },
      modules,
    )
    this.logger = logger.child({ component: 'oid4vc-issuance-records' })
  }

  /**
   * Also carries a new state to the offer's issuance record, when the offer asked for a status (the record the revoke
   * route reads; credentials/credential-revocations.ts), in the same transaction: revoking a redeemed credential
   * then needs no call to the agent.
   */
  public override async apply(
    orgId: string,
    report: ExchangeReport<IssuanceSessionFields>,
  ): Promise<ExchangeOutcome<IssuanceSessionRecord> | null> {
    const outcome = await super.apply(orgId, report)
    if (outcome && (outcome.decision === 'insert' || outcome.decision === 'advance')) {
      await this.credentials.setOpenId4VcOfferState(orgId, outcome.row.id, outcome.row.state)
    }
    return outcome
  }
}
