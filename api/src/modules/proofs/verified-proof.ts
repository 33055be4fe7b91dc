import type { AnonCredsProofSummary } from '@idplane/common/agent-contract/admin-api'
import { statusListIndexOf } from '@idplane/common/bitstring-status-list'
import type { RevocationChecks, StatusListCheck, VerifiedProofResponse } from './dto/proof.response'

/** States in which an exchange ended without a verified presentation (a problem report, a decline). */
const ENDED_UNVERIFIED = new Set(['abandoned', 'declined'])

/** `verified`, `not-verified`, `abandoned` (ended before a presentation was checked) or `pending`. */
export function verificationStatusOf(isVerified: boolean | null, state: string): string {
  if (isVerified !== null) return isVerified ? 'verified' : 'not-verified'
  return ENDED_UNVERIFIED.has(state) ? 'abandoned' : 'pending'
}

/** The AnonCreds part of a verified-proof read; empty lists for other formats. */
export function anonCredsProofView(
  summary: AnonCredsProofSummary | null,
  isVerified: boolean | null,
): Pick<VerifiedProofResponse, 'revealedAttributes' | 'revealedAttributeGroups' | 'predicates'> {
  if (!summary) return { revealedAttributes: [], revealedAttributeGroups: [], predicates: [] }
  return {
    revealedAttributes: Object.entries(summary.revealedAttributes).map(([referent, attribute]) => ({
      referent,
      name: attribute.name,
      value: attribute.raw,
    })),
    revealedAttributeGroups: Object.entries(summary.revealedAttributeGroups).map(([referent, values]) => ({
      referent,
      values,
    })),
    predicates: Object.entries(summary.predicates).map(([referent, predicate]) => ({
      referent,
      name: predicate.name,
      condition: predicate.p_type,
      value: predicate.p_value,
      statement: `${predicate.name} ${predicate.p_type} ${predicate.p_value}`,
      satisfied: isVerified === true,
    })),
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isTimestamp = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value)

/**
 * What an AnonCreds presentation proves about revocation (issue 25), read from the exchange's format data (the
 * agent's `formData`: `request` and `presentation`, in the `anoncreds` or `indy` format): the request's top-level
 * `non_revoked`, and each presented credential that carries a registry and a status-list timestamp (its
 * `identifiers` entry; a credential of a definition without revocation has neither). Pure; anything malformed is
 * left out.
 */
export function revocationChecksOf(
  formData: Record<string, unknown> | null | undefined,
  isVerified: boolean | null = null,
): RevocationChecks {
  const none: RevocationChecks = { nonRevoked: null, credentials: [] }
  if (!isRecord(formData)) return none
  const request = isRecord(formData.request) ? formData.request : {}
  const presentation = isRecord(formData.presentation) ? formData.presentation : {}
  if (isRecord(request.presentationExchange))
    return { ...none, statusLists: isVerified === null ? [] : statusListChecksOf(presentation.presentationExchange) }
  const key = isRecord(request.anoncreds) ? 'anoncreds' : isRecord(request.indy) ? 'indy' : undefined
  if (!key) return none
  const interval = (request[key] as Record<string, unknown>).non_revoked
  const nonRevoked =
    isRecord(interval) && isTimestamp(interval.to)
      ? { from: isTimestamp(interval.from) ? interval.from : null, to: interval.to }
      : null
  const proof = presentation[key]
  const identifiers = isRecord(proof) && Array.isArray(proof.identifiers) ? proof.identifiers : []
  const credentials = identifiers.flatMap((identifier: unknown) => {
    if (!isRecord(identifier)) return []
    const { cred_def_id: credDefId, rev_reg_id: registryId, timestamp } = identifier
    if (typeof credDefId !== 'string' || typeof registryId !== 'string' || !isTimestamp(timestamp)) return []
    return [
      {
        credentialDefinitionId: credDefId,
        revocationRegistryId: registryId,
        statusListTimestamp: timestamp,
        checkedAt: new Date(timestamp * 1000).toISOString(),
      },
    ]
  })
  return { nonRevoked, credentials }
}

/** A JSON-LD property that holds one value or a list of them, as a list. */
const oneOrMany = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value])

/**
 * The W3C Bitstring Status List entries of a Presentation Exchange presentation's credentials (issue 25 item 4). The
 * verifier's agent checks every one of them when it verifies the presentation (it fetches the list, checks its
 * proof, issuer and purpose, and reads the bit; a set bit or a list it cannot check fails the verification, the
 * reason in `errorMessage`), so once a verification ran these are what was checked. Pure; other entry types (which
 * fail the verification) and malformed entries are left out.
 */
function statusListChecksOf(presentation: unknown): StatusListCheck[] {
  if (!isRecord(presentation)) return []
  return oneOrMany(presentation.verifiableCredential).flatMap((credential: unknown) => {
    if (!isRecord(credential)) return []
    const entries = oneOrMany(credential.credentialStatus)
    const issuer = isRecord(credential.issuer) ? credential.issuer.id : credential.issuer
    return entries.flatMap((entry: unknown) => {
      if (!isRecord(entry) || entry.type !== 'BitstringStatusListEntry') return []
      const { statusListCredential, statusPurpose, statusListIndex } = entry
      const index = statusListIndexOf(statusListIndex)
      if (typeof statusListCredential !== 'string' || typeof statusPurpose !== 'string' || index === undefined)
        return []
      return [
        {
          credentialId: typeof credential.id === 'string' ? credential.id : null,
          issuer: typeof issuer === 'string' ? issuer : null,
          statusListCredential,
          statusListIndex: index,
          statusPurpose,
        },
      ]
    })
  })
}
