/**
 * The JSON of AnonCreds v1 presentation requests and presentations, field for field as anoncreds-rs
 * serializes them. Revocation: `non_revoked`, `rev_reg_id`, `timestamp` and `non_revoc_proof` (null when absent).
 */
import type { NonRevocProofJson } from '../revocation/types'

export type PredicateTypeJson = '>=' | '<=' | '>' | '<'

export interface NonRevokedIntervalJson {
  from?: number | null
  to?: number | null
}

/** A restriction query (anoncreds-rs `Query`): tags, `$or`, `$and`, `$not`, `{tag: {$neq|$in: ...}}`. */
export type RestrictionQueryJson = Record<string, unknown>

export interface RequestedAttributeJson {
  name?: string
  names?: string[]
  restrictions?: RestrictionQueryJson | RestrictionQueryJson[] | null
  non_revoked?: NonRevokedIntervalJson | null
}

export interface RequestedPredicateJson {
  name: string
  p_type: PredicateTypeJson
  p_value: number
  restrictions?: RestrictionQueryJson | RestrictionQueryJson[] | null
  non_revoked?: NonRevokedIntervalJson | null
}

export interface PresentationRequestJson {
  nonce: string
  name: string
  version: string
  ver?: '1.0' | '2.0'
  requested_attributes?: Record<string, RequestedAttributeJson>
  requested_predicates?: Record<string, RequestedPredicateJson>
  non_revoked?: NonRevokedIntervalJson | null
}

export interface EqProofJson {
  revealed_attrs: Record<string, string>
  a_prime: string
  e: string
  v: string
  m: Record<string, string>
  m2: string
}

export interface GeProofJson {
  u: Record<string, string>
  r: Record<string, string>
  mj: string
  alpha: string
  t: Record<string, string>
  predicate: { attr_name: string; p_type: 'GE' | 'LE' | 'GT' | 'LT'; value: number }
}

export interface SubProofJson {
  primary_proof: { eq_proof: EqProofJson; ge_proofs: GeProofJson[] }
  non_revoc_proof: NonRevocProofJson | null
}

export interface RevealedAttributeInfoJson {
  sub_proof_index: number
  raw: string
  encoded: string
}

export interface RevealedAttributeGroupInfoJson {
  sub_proof_index: number
  values: Record<string, { raw: string; encoded: string }>
}

export interface RequestedProofJson {
  revealed_attrs: Record<string, RevealedAttributeInfoJson>
  revealed_attr_groups?: Record<string, RevealedAttributeGroupInfoJson>
  self_attested_attrs: Record<string, string>
  unrevealed_attrs: Record<string, { sub_proof_index: number }>
  predicates: Record<string, { sub_proof_index: number }>
}

export interface IdentifierJson {
  schema_id: string
  cred_def_id: string
  rev_reg_id: string | null
  timestamp: number | null
}

export interface PresentationJson {
  proof: {
    proofs: SubProofJson[]
    aggregated_proof: { c_hash: string; c_list: number[][] }
  }
  requested_proof: RequestedProofJson
  identifiers: IdentifierJson[]
}
