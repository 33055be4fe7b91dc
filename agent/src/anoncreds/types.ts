/**
 * The AnonCreds v1 objects exactly as anoncreds-rs serializes them (field names, nesting, decimal strings for
 * big numbers, `null` where anoncreds-rs writes an absent Option without skipping it). Revocation parts are
 * typed as `null`/absent for now; the revocation issue widens these types.
 */

/** A big integer as anoncreds-rs writes it: a decimal string. */
export type BigDecimal = string

export interface Schema {
  name: string
  version: string
  attrNames: string[]
  issuerId: string
}

export interface CredentialPrimaryPublicKey {
  n: BigDecimal
  s: BigDecimal
  /** One base per attribute (names in anoncreds-rs's "common view": no spaces, lower case) plus master_secret. */
  r: Record<string, BigDecimal>
  rctxt: BigDecimal
  z: BigDecimal
}

export interface CredentialDefinition {
  schemaId: string
  type: 'CL'
  tag: string
  value: {
    primary: CredentialPrimaryPublicKey
    /** Absent without revocation (anoncreds-rs skips it); the revocation issue adds its type. */
    revocation?: unknown
  }
  issuerId: string
}

export interface CredentialDefinitionPrivate {
  value: {
    /** The safe primes' halves p' and q' (n = (2p'+1)(2q'+1)). */
    p_key: { p: BigDecimal; q: BigDecimal }
    r_key: null
  }
}

export interface KeyCorrectnessProof {
  c: BigDecimal
  xz_cap: BigDecimal
  /** Ordered pairs [attribute, value]; the order is part of the proof's hash. */
  xr_cap: Array<[string, BigDecimal]>
}

export interface CredentialOffer {
  schema_id: string
  cred_def_id: string
  key_correctness_proof: KeyCorrectnessProof
  nonce: BigDecimal
  method_name?: string
}

export interface BlindedCredentialSecrets {
  u: BigDecimal
  ur: null
  hidden_attributes: string[]
  committed_attributes: Record<string, BigDecimal>
}

export interface BlindedCredentialSecretsCorrectnessProof {
  c: BigDecimal
  v_dash_cap: BigDecimal
  m_caps: Record<string, BigDecimal>
  r_caps: Record<string, BigDecimal>
}

export interface CredentialRequest {
  entropy?: string
  prover_did?: string
  cred_def_id: string
  blinded_ms: BlindedCredentialSecrets
  blinded_ms_correctness_proof: BlindedCredentialSecretsCorrectnessProof
  nonce: BigDecimal
}

export interface CredentialRequestMetadata {
  link_secret_blinding_data: { v_prime: BigDecimal; vr_prime: null }
  nonce: BigDecimal
  link_secret_name: string
}

export interface AttributeValues {
  raw: string
  encoded: BigDecimal
}

export type CredentialValues = Record<string, AttributeValues>

export interface PrimaryCredentialSignature {
  m_2: BigDecimal
  a: BigDecimal
  e: BigDecimal
  v: BigDecimal
}

export interface Credential {
  schema_id: string
  cred_def_id: string
  rev_reg_id: null
  values: CredentialValues
  signature: { p_credential: PrimaryCredentialSignature; r_credential: null }
  signature_correctness_proof: { se: BigDecimal; c: BigDecimal }
  rev_reg: null
  witness: null
}

/** A link secret is a 256-bit number in decimal. */
export type LinkSecret = string
