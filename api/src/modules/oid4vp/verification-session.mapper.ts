import type { DisclosedCredentialJson } from '@idplane/common/agent-contract/openid4vc-api'
import type { ExchangeReport } from '../../infra/records/exchange-records'
import { sessionIdentityOf, textOf, versionTimeOf } from '../../infra/records/record-order'
import type { PresentationSessionResponse } from './dto/oid4vp.response'
import { toPresentationSessionResponse } from './oid4vp.mapper'
import type { VerificationSessionRecord } from './verification-session.entity'
import { VERIFICATION_SESSION_STATE_RANK } from './verification-session.states'

/** What the platform keeps of a verification session: never the nonce, the request payload or the wallet's response. */
export interface VerificationSessionFields {
  id: string
  verifierId: string
  state: string
  authorizationRequestUri: string | null
  errorMessage: string | null
  /** Only from the agent's answer for the session (the event's record holds the raw response, not this). */
  disclosed?: DisclosedCredentialJson[]
  expiresAt: Date | null
  createdAt: Date
  agentUpdatedAt: Date
}

/**
 * A Credo verification session record's JSON (as the agent's event carries it) as a report; null when it lacks a
 * UUID id, a verifier or a known state. Picks the listed fields only: the request payload (with its nonce) and the
 * authorization response (the presentations) are not copied. Pure.
 */
export function verificationSessionReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<VerificationSessionFields> | null {
  const identity = sessionIdentityOf(record, 'verifierId', VERIFICATION_SESSION_STATE_RANK)
  if (!identity) return null
  const { id, ownerId: verifierId, state } = identity
  const versionAt = versionTimeOf(record, occurredAt)
  return {
    recordId: id,
    state,
    versionAt,
    fields: {
      id,
      verifierId,
      state,
      authorizationRequestUri: textOf(record, 'authorizationRequestUri', 8000),
      errorMessage: textOf(record, 'errorMessage', 4000),
      expiresAt: instantOf(record.expiresAt),
      createdAt: instantOf(record.createdAt) ?? versionAt,
      agentUpdatedAt: versionAt,
    },
  }
}

/**
 * The disclosed claims of the agent's answer for a session (`getPresentation`), exactly as the session read shows
 * them; null when the answer has none.
 */
export function disclosedOfAnswer(answer: PresentationSessionResponse): DisclosedCredentialJson[] | null {
  return toPresentationSessionResponse(answer).disclosed ?? null
}

/** The row as `GET .../verifier-presentation?id=` shows the session: the webhook event's record. */
export function toVerificationSessionEventRecord(row: VerificationSessionRecord): PresentationSessionResponse {
  return toPresentationSessionResponse({
    id: row.id,
    verifierId: row.verifierId,
    state: row.state,
    authorizationRequestUri: row.authorizationRequestUri ?? undefined,
    errorMessage: row.errorMessage ?? undefined,
    disclosed: row.disclosed ?? undefined,
    expiresAt: row.expiresAt?.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.agentUpdatedAt.toISOString(),
  })
}

function instantOf(value: unknown): Date | null {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN
  return Number.isNaN(time) ? null : new Date(time)
}
