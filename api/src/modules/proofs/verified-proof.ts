import type { AnonCredsProofSummary } from '@idplane/common/agent-contract/admin-api'
import type { VerifiedProofResponse } from './dto/proof.response'

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
