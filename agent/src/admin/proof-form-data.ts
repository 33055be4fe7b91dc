import type { AnonCredsProofSummary, ProofFormData } from '@idplane/common/agent-contract/admin-api'

import { toJson } from './envelope'

interface AnonCredsPresentationJson {
  requested_proof?: {
    revealed_attrs?: Record<string, { raw?: string }>
    revealed_attr_groups?: Record<string, { values?: Record<string, { raw?: string }> }>
    self_attested_attrs?: Record<string, string>
    predicates?: Record<string, unknown>
  }
}

interface AnonCredsRequestJson {
  requested_attributes?: Record<string, { name?: string }>
  requested_predicates?: Record<string, { name: string; p_type: string; p_value: number }>
}

/** Credo's format data of a proof exchange: the request and presentation by format key. */
export interface ProofFormatData {
  request?: Record<string, unknown>
  presentation?: Record<string, unknown>
}

/**
 * GET /proofs/:id/form-data from the record's state and format data: the revealed values (AnonCreds: one object of
 * the revealed raw values; PE: each presented credential's subject) and, for AnonCreds, what was proven.
 */
export function toProofFormData(
  record: { isVerified?: boolean; state: string },
  formData: ProofFormatData,
): ProofFormData {
  const anoncreds = anonCredsSummary(formData)
  const common = { isVerified: record.isVerified ?? null, state: record.state }
  if (anoncreds) {
    const revealed: Record<string, string> = Object.fromEntries(
      Object.values(anoncreds.revealedAttributes).map((attribute) => [attribute.name, attribute.raw]),
    )
    for (const group of Object.values(anoncreds.revealedAttributeGroups)) Object.assign(revealed, group)
    return { ...common, revealed: [revealed], anoncreds, formData: toJson(formData) as Record<string, unknown> }
  }
  const presentation = formData.presentation?.presentationExchange as { verifiableCredential?: unknown } | undefined
  const credentials = presentation?.verifiableCredential
  const revealed = (Array.isArray(credentials) ? credentials : credentials ? [credentials] : []).map(
    (credential) => (credential as { credentialSubject?: unknown }).credentialSubject,
  )
  return { ...common, revealed, anoncreds: null, formData: toJson(formData) as Record<string, unknown> }
}

/** What an AnonCreds (anoncreds or indy format) presentation proves, read from its request and proof JSON. */
function anonCredsSummary(formData: ProofFormatData): AnonCredsProofSummary | undefined {
  const key = formData.request?.anoncreds ? 'anoncreds' : formData.request?.indy ? 'indy' : undefined
  if (!key) return undefined
  const request = formData.request?.[key] as AnonCredsRequestJson
  const proof = (formData.presentation?.[key] as AnonCredsPresentationJson | undefined)?.requested_proof ?? {}
  const revealedAttributes: AnonCredsProofSummary['revealedAttributes'] = {}
  for (const [referent, value] of Object.entries(proof.revealed_attrs ?? {}))
    revealedAttributes[referent] = {
      name: request.requested_attributes?.[referent]?.name ?? referent,
      raw: value.raw ?? '',
    }
  const revealedAttributeGroups: AnonCredsProofSummary['revealedAttributeGroups'] = {}
  for (const [referent, group] of Object.entries(proof.revealed_attr_groups ?? {}))
    revealedAttributeGroups[referent] = Object.fromEntries(
      Object.entries(group.values ?? {}).map(([name, value]) => [name, value.raw ?? '']),
    )
  const predicates: AnonCredsProofSummary['predicates'] = {}
  for (const referent of Object.keys(proof.predicates ?? {})) {
    const predicate = request.requested_predicates?.[referent]
    if (predicate) predicates[referent] = { name: predicate.name, p_type: predicate.p_type, p_value: predicate.p_value }
  }
  return {
    revealedAttributes,
    revealedAttributeGroups,
    predicates,
    selfAttestedAttributes: proof.self_attested_attrs ?? {},
  }
}
