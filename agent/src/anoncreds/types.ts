/**
 * The AnonCreds v1 objects exactly as anoncreds-rs serializes them (field names, nesting, decimal strings for
 * big numbers, `null` where anoncreds-rs writes an absent Option without skipping it). Revocation parts are
 * Milagro BN254 text (revocation/types.ts), `null` for a credential definition or credential without revocation.
 */
import type {
  CredentialRevocationPrivateKeyJson,
  CredentialRevocationPublicKeyJson,
  NonRevocationCredentialSignatureJson,
  RevocationRegistryJson,
  WitnessJson,
} from './revocation/types'

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
    /** Absent without revocation (anoncreds-rs skips it). */
    revocation?: CredentialRevocationPublicKeyJson
  }
  issuerId: string
}

export interface CredentialDefinitionPrivate {
  value: {
    /** The safe primes' halves p' and q' (n = (2p'+1)(2q'+1)). */
    p_key: { p: BigDecimal; q: BigDecimal }
    /** The revocation secrets; null for a definition without revocation. */
    r_key: CredentialRevocationPrivateKeyJson | null
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
  /** h2^vr' (a G1 point), the blinding of the revocation part; null for a definition without revocation. */
  ur: string | null
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
  /** vr_prime: a scalar modulo the pairing group order (hex), null for a definition without revocation. */
  link_secret_blinding_data: { v_prime: BigDecimal; vr_prime: string | null }
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

/** A credential; the revocation fields are null for a credential issued without a revocation registry. */
export interface Credential {
  schema_id: string
  cred_def_id: string
  rev_reg_id: string | null
  values: CredentialValues
  signature: { p_credential: PrimaryCredentialSignature; r_credential: NonRevocationCredentialSignatureJson | null }
  signature_correctness_proof: { se: BigDecimal; c: BigDecimal }
  /** The accumulator when the credential was issued. */
  rev_reg: RevocationRegistryJson | null
  /** The witness for that accumulator (holders compute newer ones from the tails file). */
  witness: WitnessJson | null
}

/** A link secret is a 256-bit number in decimal. */
export type LinkSecret = string
