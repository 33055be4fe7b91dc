import { blindSecrets, type BlindedSecrets, type BlindedSecretsProof } from './cl/blinding'
import { LINK_SECRET_ATTRIBUTE } from './cl/constants'
import { verifyKeyCorrectness } from './cl/primary-key'
import { readCredentialDefinition } from './credential-definition'
import { createNonce, readCredentialOffer } from './credential-offer'
import { AnonCredsError, malformed } from './errors'
import { isLegacyCredentialDefinitionId, isLegacyDid, isUri, assertIdentifier } from './identifiers'
import { readLinkSecret } from './link-secret'
import { toDecimal } from './math'
import {
  readArray,
  readBigint,
  readEntries,
  readNonce,
  readObject,
  readOptionalString,
  readString,
  type Json,
} from './read'
import type { G1Point } from './revocation/bn254'
import { blindRevocationSecret } from './revocation/credential-signature'
import { formatG1, formatScalar, parseG1, parseScalar } from './revocation/encoding'
import { readingRevocation } from './revocation/registry'
import type { CredentialRequest, CredentialRequestMetadata } from './types'

export interface CreateCredentialRequestOptions {
  /** Binds the credential to this request; anoncreds-rs requires it unless a legacy prover DID is given. */
  entropy?: string
  proverDid?: string
  credentialDefinition: Json
  linkSecret: string
  linkSecretId: string
  credentialOffer: Json
}

/**
 * The holder's request: checks the issuer's key correctness proof (refusing a key it cannot trust), blinds the
 * link secret against the offer's nonce, and keeps v' in the metadata for processCredential; for a definition with
 * revocation also blinds a random vr' as `ur` (kept as `vr_prime`).
 */
export function createCredentialRequest(options: CreateCredentialRequestOptions): {
  credentialRequest: CredentialRequest
  credentialRequestMetadata: CredentialRequestMetadata
} {
  const { publicKey, revocation } = readCredentialDefinition(options.credentialDefinition)
  const offer = readCredentialOffer(options.credentialOffer)
  const linkSecret = readLinkSecret(options.linkSecret)
  const linkSecretId = readString(options.linkSecretId, 'linkSecretId', { maxLength: 1024 })
  const entropy = readOptionalString(options.entropy, 'entropy')
  const proverDid = readOptionalString(options.proverDid, 'proverDid')
  checkEntropy(entropy, proverDid, offer.json.cred_def_id)

  if (!verifyKeyCorrectness(publicKey, offer.keyCorrectness)) {
    throw new AnonCredsError(
      'invalid',
      'the offer key correctness proof does not match the credential definition',
      'credentialOffer.key_correctness_proof',
    )
  }
  const hidden = new Map([[LINK_SECRET_ATTRIBUTE, linkSecret]])
  const { blinded, proof, vPrime } = blindSecrets(publicKey, hidden, offer.nonce)
  const revocationBlinding = revocation ? blindRevocationSecret(revocation) : null
  const nonce = createNonce()
  return {
    credentialRequest: {
      ...(entropy === undefined ? {} : { entropy }),
      ...(proverDid === undefined ? {} : { prover_did: proverDid }),
      cred_def_id: offer.json.cred_def_id,
      blinded_ms: writeBlindedSecrets(blinded, revocationBlinding?.ur ?? null),
      blinded_ms_correctness_proof: writeBlindedSecretsProof(proof),
      nonce,
    },
    credentialRequestMetadata: {
      link_secret_blinding_data: {
        v_prime: toDecimal(vPrime),
        vr_prime: revocationBlinding ? formatScalar(revocationBlinding.vrPrime) : null,
      },
      nonce,
      link_secret_name: linkSecretId,
    },
  }
}

/** anoncreds-rs's rule: entropy, or else a prover DID, which only legacy credential definitions may use. */
function checkEntropy(entropy: string | undefined, proverDid: string | undefined, credDefId: string): void {
  if (entropy !== undefined) {
    if (proverDid !== undefined) throw malformed('proverDid', 'prover DID and entropy must not both be supplied')
    return
  }
  if (!isLegacyCredentialDefinitionId(credDefId)) throw malformed('entropy', 'entropy is required')
  if (proverDid === undefined) throw malformed('entropy', 'entropy or a prover DID is required')
  if (!isUri(proverDid) && !isLegacyDid(proverDid)) throw malformed('proverDid', 'is not a valid DID')
}

function writeBlindedSecrets(blinded: BlindedSecrets, ur: G1Point | null): CredentialRequest['blinded_ms'] {
  return {
    u: toDecimal(blinded.u),
    ur: ur ? formatG1(ur) : null,
    hidden_attributes: blinded.hiddenAttributes,
    committed_attributes: {},
  }
}

function writeBlindedSecretsProof(proof: BlindedSecretsProof): CredentialRequest['blinded_ms_correctness_proof'] {
  const mCaps: Record<string, string> = {}
  for (const [name, value] of proof.mCaps) mCaps[name] = toDecimal(value)
  return { c: toDecimal(proof.c), v_dash_cap: toDecimal(proof.vDashCap), m_caps: mCaps, r_caps: {} }
}

export interface ParsedCredentialRequest {
  json: CredentialRequest
  /** What the issuer hashes into the credential context m2: entropy, else the prover DID. */
  entropy: string
  blinded: BlindedSecrets
  /** The blinded revocation secret h2^vr', null when the holder's definition had no revocation. */
  ur: G1Point | null
  proof: BlindedSecretsProof
  nonce: bigint
}

export function readCredentialRequest(value: Json, path = 'credentialRequest'): ParsedCredentialRequest {
  const request = readObject(value, path)
  const entropy = readOptionalString(request.entropy, `${path}.entropy`)
  const proverDid = readOptionalString(request.prover_did, `${path}.prover_did`)
  const credDefId = assertIdentifier(
    'credentialDefinitionId',
    readString(request.cred_def_id, `${path}.cred_def_id`),
    `${path}.cred_def_id`,
  )
  checkEntropy(entropy, proverDid, credDefId)

  const blindedJson = readObject(request.blinded_ms, `${path}.blinded_ms`)
  const urJson = blindedJson.ur
  const ur =
    urJson === undefined || urJson === null
      ? null
      : readingRevocation(`${path}.blinded_ms.ur`, () => parseG1(urJson, `${path}.blinded_ms.ur`))
  const hiddenAttributes = readArray(blindedJson.hidden_attributes, `${path}.blinded_ms.hidden_attributes`, 130).map(
    (name, i) => readString(name, `${path}.blinded_ms.hidden_attributes[${i}]`, { maxLength: 256 }),
  )
  if (new Set(hiddenAttributes).size !== hiddenAttributes.length) {
    throw malformed(`${path}.blinded_ms.hidden_attributes`, 'names must be unique')
  }
  // anoncreds-rs never commits attributes; a request that does is not one it made.
  if (readEntries(blindedJson.committed_attributes ?? {}, `${path}.blinded_ms.committed_attributes`).length > 0) {
    throw new AnonCredsError('unsupported', 'committed attributes are not supported', `${path}.blinded_ms`)
  }
  const blinded: BlindedSecrets = { u: readBigint(blindedJson.u, `${path}.blinded_ms.u`), hiddenAttributes }

  const proofJson = readObject(request.blinded_ms_correctness_proof, `${path}.blinded_ms_correctness_proof`)
  const pp = `${path}.blinded_ms_correctness_proof`
  const mCaps = new Map<string, bigint>()
  for (const [name, raw] of readEntries(proofJson.m_caps, `${pp}.m_caps`, 130)) {
    mCaps.set(name, readBigint(raw, `${pp}.m_caps.${name}`, { maxBits: 2048 }))
  }
  if (readEntries(proofJson.r_caps ?? {}, `${pp}.r_caps`).length > 0) {
    throw new AnonCredsError('unsupported', 'committed attributes are not supported', `${pp}.r_caps`)
  }
  const proof: BlindedSecretsProof = {
    c: readBigint(proofJson.c, `${pp}.c`, { maxBits: 256 }),
    vDashCap: readBigint(proofJson.v_dash_cap, `${pp}.v_dash_cap`, { maxBits: 4096 }),
    mCaps,
  }
  const nonce = readNonce(request.nonce, `${path}.nonce`)
  const json: CredentialRequest = {
    ...(entropy === undefined ? {} : { entropy }),
    ...(proverDid === undefined ? {} : { prover_did: proverDid }),
    cred_def_id: credDefId,
    blinded_ms: writeBlindedSecrets(blinded, ur),
    blinded_ms_correctness_proof: writeBlindedSecretsProof(proof),
    nonce: toDecimal(nonce),
  }
  // checkEntropy guarantees one of the two.
  return { json, entropy: entropy ?? proverDid ?? '', blinded, ur, proof, nonce }
}

export function readCredentialRequestMetadata(
  value: Json,
  path = 'credentialRequestMetadata',
): { vPrime: bigint; vrPrime: bigint | null; nonce: bigint; linkSecretName: string } {
  const metadata = readObject(value, path)
  const blinding = readObject(metadata.link_secret_blinding_data, `${path}.link_secret_blinding_data`)
  const vrPath = `${path}.link_secret_blinding_data.vr_prime`
  const vrJson = blinding.vr_prime
  return {
    vPrime: readBigint(blinding.v_prime, `${path}.link_secret_blinding_data.v_prime`, { maxBits: 4096 }),
    vrPrime:
      vrJson === undefined || vrJson === null ? null : readingRevocation(vrPath, () => parseScalar(vrJson, vrPath)),
    nonce: readNonce(metadata.nonce, `${path}.nonce`),
    linkSecretName: readString(metadata.link_secret_name, `${path}.link_secret_name`, { nonEmpty: false }),
  }
}
