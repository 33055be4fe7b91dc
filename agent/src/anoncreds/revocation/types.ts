/**
 * The revocation objects of AnonCreds v1 exactly as anoncreds-rs serializes them (field names and order, absent
 * Options skipped where anoncreds-rs skips them). Points and pairing values are Milagro text (see encoding.ts),
 * scalars modulo r are hex.
 */

/** `value.revocation` of a credential definition that supports revocation. */
export interface CredentialRevocationPublicKeyJson {
  g: string
  g_dash: string
  h: string
  h0: string
  h1: string
  h2: string
  htilde: string
  h_cap: string
  u: string
  pk: string
  y: string
}

/** `value.r_key` of the credential definition's private part. */
export interface CredentialRevocationPrivateKeyJson {
  x: string
  sk: string
}

export interface RevocationRegistryDefinition {
  issuerId: string
  revocDefType: 'CL_ACCUM'
  tag: string
  credDefId: string
  value: {
    maxCredNum: number
    publicKeys: { accumKey: { z: string } }
    /** base58 of the SHA-256 of the tails file. */
    tailsHash: string
    tailsLocation: string
  }
}

export interface RevocationRegistryDefinitionPrivate {
  value: { gamma: string }
}

/**
 * anoncreds-rs' RevocationStatusList: `revocationList[i]` is 1 when the credential of index i is revoked (or not yet
 * issued, with issuance on demand), 0 otherwise; entry 0 is no credential.
 */
export interface RevocationStatusList {
  revRegDefId?: string
  issuerId: string
  revocationList: number[]
  currentAccumulator?: string
  timestamp?: number
}

export interface WitnessSignatureJson {
  sigma_i: string
  u_i: string
  g_i: string
}

/** The credential's `signature.r_credential`. */
export interface NonRevocationCredentialSignatureJson {
  sigma: string
  c: string
  vr_prime_prime: string
  witness_signature: WitnessSignatureJson
  g_i: string
  /** The credential's index in the registry, 1-based. */
  i: number
  m2: string
}

export interface RevocationRegistryJson {
  accum: string
}

export interface WitnessJson {
  omega: string
}

/** A holder's revocation state for one credential at one status list (anoncreds-rs CredentialRevocationState). */
export interface CredentialRevocationState {
  witness: WitnessJson
  rev_reg: RevocationRegistryJson
  timestamp: number
}

export interface NonRevocProofXListJson {
  rho: string
  r: string
  r_prime: string
  r_prime_prime: string
  r_prime_prime_prime: string
  o: string
  o_prime: string
  m: string
  m_prime: string
  t: string
  t_prime: string
  s: string
  c: string
}

export interface NonRevocProofCListJson {
  e: string
  d: string
  a: string
  g: string
  w: string
  s: string
  u: string
}

export interface NonRevocProofJson {
  x_list: NonRevocProofXListJson
  c_list: NonRevocProofCListJson
}
