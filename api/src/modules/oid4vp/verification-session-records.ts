import { injectable } from 'inversify'
import { Logger, NotFoundError } from '@idplane/common'
import type { DisclosedCredentialJson } from '@idplane/common/agent-contract/openid4vc-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AppliedAgentEvent } from '../../infra/api-module'
import { ModuleRegistry } from '../../infra/module-registry'
import { type ExchangeReport, OrgExchangeRecords, stateChangedType } from '../../infra/records/exchange-records'
import type { VerificationSessionRecord } from './verification-session.entity'
import {
  disclosedOfAnswer,
  toVerificationSessionEventRecord,
  verificationSessionReportOf,
  type VerificationSessionFields,
} from './verification-session.mapper'
import { RESPONSE_VERIFIED, VERIFICATION_SESSION_ORDER } from './verification-session.states'
import { VerificationSessionsRepository } from './verification-sessions.repository'
import { Oid4vpMetrics } from './oid4vp-metrics'

/** The kind of the organization's OID4VP verification sessions on the record kit. */
export const VERIFICATION_SESSION_KIND = 'oid4vp-verification'

/** The platform event announcing each new state of a verification session (docs/api-usage.md, "Events"). */
export const VERIFICATION_SESSION_STATE_CHANGED = stateChangedType(VERIFICATION_SESSION_KIND)

/**
 * The organization's OID4VP verification sessions, kept from its agent's `openid4vc-verification` events
 * (infra/records/exchange-records.ts) for ordering, the state event and its webhook. The event's record holds the
 * wallet's raw response, not what it disclosed: when a report would move a session to ResponseVerified, the
 * agent's answer for the session (the one the session read shows) supplies the disclosed claims.
 */
@injectable()
export class VerificationSessionRecords extends OrgExchangeRecords<
  VerificationSessionRecord,
  VerificationSessionFields
> {
  private readonly logger: Logger

  public constructor(
    private readonly sessions: VerificationSessionsRepository,
    private readonly agents: AgentClients,
    metrics: Oid4vpMetrics,
    modules: ModuleRegistry,
    logger: Logger,
  ) {
    super(
      {
        name: VERIFICATION_SESSION_KIND,
        order: VERIFICATION_SESSION_ORDER,
        mapper: verificationSessionReportOf,
        store: {
          transactional: (work) => sessions.transactional(work),
          lockOrCreate: (orgId, report) => sessions.lockOrCreate(orgId, report.fields),
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: (row, report, decision) => {
          const fields = report.fields
          if (decision === 'advance' || decision === 'refresh') {
            row.state = fields.state
            row.agentUpdatedAt = fields.agentUpdatedAt
            row.authorizationRequestUri = fields.authorizationRequestUri ?? row.authorizationRequestUri
            row.errorMessage = fields.errorMessage ?? row.errorMessage
            row.expiresAt = fields.expiresAt ?? row.expiresAt
          }
          // A repeat of the verified report may bring the claims an earlier one could not fetch.
          if (fields.disclosed && !row.disclosed) row.disclosed = fields.disclosed
        },
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row) => ({ ...toVerificationSessionEventRecord(row) }),
        onAnnounced: (row) => metrics.stateChanges.inc({ state: row.state }),
        onUnusable: (orgId) =>
          this.logger.warn('Ignored a verification session event whose record lacks id, verifier or a known state', {
            orgId,
          }),
      },
      modules,
    )
    this.logger = logger.child({ component: 'oid4vp-verification-records' })
  }

  public override async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    const report = this.eventReport(orgId, event)
    if (!report) return
    if (await this.lacksDisclosed(orgId, report)) {
      const disclosed = await this.disclosedAtAgent(orgId, report.recordId)
      if (disclosed) report.fields.disclosed = disclosed
    }
    await this.apply(orgId, report)
  }

  /**
   * Whether the report is a verified session the platform has not stored with its claims yet (one agent call per
   * verified session, not per repeat). Read without the lock: a row it finds complete stays complete.
   */
  private async lacksDisclosed(orgId: string, report: ExchangeReport<VerificationSessionFields>): Promise<boolean> {
    if (report.state !== RESPONSE_VERIFIED) return false
    const stored = await this.sessions.findForOrg(orgId, report.recordId)
    return !stored?.disclosed
  }

  /**
   * The disclosed claims as the agent answers the session read; null when the agent no longer has the session
   * (the state is stored without them). Other failures throw, so the event is delivered again.
   */
  private async disclosedAtAgent(orgId: string, sessionId: string): Promise<DisclosedCredentialJson[] | null> {
    try {
      const agent = await this.agents.openId4VcForOrg(orgId)
      return disclosedOfAnswer(await agent.getPresentation(sessionId))
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      this.logger.warn('Stored a verified session without its disclosed claims: the agent no longer has it', {
        orgId,
        sessionId,
      })
      return null
    }
  }
}
