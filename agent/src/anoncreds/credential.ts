import { attributeCommonView, buildCredentialValues, readCredentialValues, valuesByCommonView } from './attributes'
import { verifyBlindedSecrets } from './cl/blinding'
import { LINK_SECRET_ATTRIBUTE } from './cl/constants'
import {
  credentialContext,
  signPrimary,
  verifyPrimarySignature,
  type PrimarySignature,
  type SignatureCorrectness,
} from './cl/signature'
import { readCredentialDefinition, readCredentialDefinitionPrivate } from './credential-definition'
import { readCredentialOffer } from './credential-offer'
import { readCredentialRequest, readCredentialRequestMetadata } from './credential-request'
import { AnonCredsError, guarded, malformed } from './errors'
import { assertIdentifier } from './identifiers'
import { readLinkSecret } from './link-secret'
import { isProbablePrimeOffLoop, toDecimal } from './math'
import { readBigint, readObject, readString, type Json } from './read'
import { type G2Point } from './revocation/bn254'
import { checkNonRevocationSignature, signNonRevocation, withVrPrime } from './revocation/credential-signature'
import { formatG2, parseG2 } from './revocation/encoding'
import {
  formatNonRevocationCredential,
  readNonRevocationCredential,
  reduceToScalar,
  type NonRevocationCredential,
} from './revocation/keys'
import {
  FIRST_REVOCATION_INDEX,
  gammaOf,
  lastRevocationIndex,
  readingRevocation,
  revocationRegistryDefinitionOf,
  statusListOf,
} from './revocation/registry'
import type { Credential, CredentialValues } from './types'

/** Where the credential goes in a revocation registry (anoncreds-rs CredentialRevocationConfig). */
export interface CredentialRevocationConfiguration {
  revocationRegistryDefinition: Json
  revocationRegistryDefinitionPrivate: Json
  /** The registry's current status list; the credential's `rev_reg_id` is its `revRegDefId`. */
  revocationStatusList: Json
  /** The credential's index, 1 to maxCredNum-1 (bit `registryIndex` of the status list). */
  registryIndex: number
}

export interface CreateCredentialOptions {
  credentialDefinition: Json
  credentialDefinitionPrivate: Json
  credentialOffer: Json
  credentialRequest: Json
  /** Raw values by attribute name; encoded as anoncreds-rs does unless attributeEncodedValues names one. */
  attributeRawValues: Record<string, string>
  attributeEncodedValues?: Record<string, string>
  /** Issues a revocable credential at this index of the registry; without it the credential cannot be revoked. */
  revocationConfiguration?: CredentialRevocationConfiguration
}

/**
 * The issuer signs: checks the holder's blinded link secret proof against the offer's nonce, then signs every
 * attribute of the definition (all must be given, no others) and proves the signature bound to the request nonce.
 * With a revocation configuration the credential context binds the index, and the credential carries the
 * non-revocation signature, the accumulator it was issued against and its witness (`rev_reg`, `witness`).
 */
export function createCredential(options: CreateCredentialOptions): Credential {
  const definition = readCredentialDefinition(options.credentialDefinition)
  const { publicKey } = definition
  const privateKey = readCredentialDefinitionPrivate(options.credentialDefinitionPrivate, definition)
  const offer = readCredentialOffer(options.credentialOffer)
  const request = readCredentialRequest(options.credentialRequest)
  if (request.json.cred_def_id !== offer.json.cred_def_id) {
    throw new AnonCredsError(
      'invalid',
      'the request is for another credential definition than the offer',
      'credentialRequest.cred_def_id',
    )
  }
  const values = buildCredentialValues(options.attributeRawValues, options.attributeEncodedValues, 'attributeRawValues')
  const known = valuesByCommonView(values, 'attributeRawValues')
  if (known.has(LINK_SECRET_ATTRIBUTE))
    throw malformed(`attributeRawValues.${LINK_SECRET_ATTRIBUTE}`, 'is reserved for the link secret')
  for (const name of publicKey.r.keys()) {
    if (name !== LINK_SECRET_ATTRIBUTE && !known.has(name))
      throw malformed('attributeRawValues', `no value for attribute '${name}'`)
  }
  for (const name of known.keys()) {
    if (!publicKey.r.has(name))
      throw malformed('attributeRawValues', `attribute '${name}' is not in the credential definition`)
  }
  const hidden = request.blinded.hiddenAttributes
  if (hidden.length !== 1 || hidden[0] !== LINK_SECRET_ATTRIBUTE) {
    throw new AnonCredsError(
      'invalid',
      `the request must blind exactly the ${LINK_SECRET_ATTRIBUTE}`,
      'credentialRequest.blinded_ms',
    )
  }
  if (!verifyBlindedSecrets(publicKey, request.blinded, request.proof, offer.nonce)) {
    throw new AnonCredsError(
      'invalid',
      'the blinded link secret correctness proof is invalid (tampered, or made for another offer)',
      'credentialRequest.blinded_ms_correctness_proof',
    )
  }
  const revocation =
    options.revocationConfiguration === undefined || options.revocationConfiguration === null
      ? null
      : readRevocationConfiguration(options.revocationConfiguration, offer.json.cred_def_id)
  if (revocation) {
    if (!definition.revocation || !privateKey.revocation)
      throw new AnonCredsError(
        'invalid',
        'the credential definition does not support revocation',
        'credentialDefinition.value.revocation',
      )
    if (!request.ur)
      throw new AnonCredsError(
        'invalid',
        'the request has no blinded revocation secret (ur): it was made for a definition without revocation',
        'credentialRequest.blinded_ms.ur',
      )
  }
  const m2 = credentialContext(request.entropy, revocation ? revocation.index : undefined)
  const { signature, correctness } = guarded('createCredential', () =>
    signPrimary(publicKey, privateKey, request.blinded.u, m2, known, request.nonce),
  )
  const revocable =
    revocation && definition.revocation && privateKey.revocation && request.ur
      ? signRevocable({
          key: definition.revocation,
          privateKey: privateKey.revocation,
          gamma: revocation.gamma,
          maxCredNum: revocation.maxCredNum,
          index: revocation.index,
          accumulator: revocation.accumulator,
          inAccumulator: revocation.inAccumulator,
          m2,
          ur: request.ur,
        })
      : null
  return {
    schema_id: offer.json.schema_id,
    cred_def_id: offer.json.cred_def_id,
    rev_reg_id: revocation ? revocation.revRegDefId : null,
    values,
    signature: {
      p_credential: writeSignature(signature),
      r_credential: revocable ? formatNonRevocationCredential(revocable.credential) : null,
    },
    signature_correctness_proof: { se: toDecimal(correctness.se), c: toDecimal(correctness.c) },
    rev_reg: revocable ? { accum: formatG2(revocable.accumulator) } : null,
    witness: revocable ? { omega: formatG2(revocable.witness) } : null,
  }
}

/** signNonRevocation's RangeError (a secret sum without inverse: never for real keys) as the library's error. */
function signRevocable(options: Parameters<typeof signNonRevocation>[0]): ReturnType<typeof signNonRevocation> {
  try {
    return signNonRevocation(options)
  } catch (error) {
    if (error instanceof RangeError)
      throw new AnonCredsError('invalid', `createCredential: ${error.message}`, 'revocationConfiguration', {
        cause: error,
      })
    throw error
  }
}

interface RevocationTarget {
  revRegDefId: string
  maxCredNum: number
  gamma: bigint
  index: number
  accumulator: G2Point
  inAccumulator: boolean
}

function readRevocationConfiguration(value: unknown, credDefId: string): RevocationTarget {
  const path = 'revocationConfiguration'
  const config = readObject(value, path)
  const definition = revocationRegistryDefinitionOf(
    config.revocationRegistryDefinition,
    `${path}.revocationRegistryDefinition`,
  )
  if (definition.credDefId !== credDefId)
    throw new AnonCredsError(
      'invalid',
      'the revocation registry is for another credential definition than the offer',
      `${path}.revocationRegistryDefinition.credDefId`,
    )
  const gamma = gammaOf(config.revocationRegistryDefinitionPrivate, `${path}.revocationRegistryDefinitionPrivate`)
  const list = statusListOf(config.revocationStatusList, `${path}.revocationStatusList`)
  // anoncreds-rs takes the credential's rev_reg_id from the list; a credential without it could never be checked.
  if (list.revRegDefId === null) throw malformed(`${path}.revocationStatusList.revRegDefId`, 'is required')
  const revRegDefId = assertIdentifier(
    'revocationRegistryDefinitionId',
    list.revRegDefId,
    `${path}.revocationStatusList.revRegDefId`,
  )
  if (list.accumulator === null)
    throw new AnonCredsError('invalid', 'the status list has no accumulator', `${path}.revocationStatusList`)
  if (list.revoked.length !== definition.maxCredNum)
    throw new AnonCredsError(
      'invalid',
      'the status list does not have maxCredNum entries',
      `${path}.revocationStatusList.revocationList`,
    )
  const index = config.registryIndex
  const last = lastRevocationIndex(definition.maxCredNum)
  if (typeof index !== 'number' || !Number.isInteger(index) || index < FIRST_REVOCATION_INDEX || index > last)
    throw malformed(`${path}.registryIndex`, `must be an index from ${FIRST_REVOCATION_INDEX} to ${last}`)
  return {
    revRegDefId,
    maxCredNum: definition.maxCredNum,
    gamma,
    index,
    accumulator: list.accumulator,
    // anoncreds-rs: a 0 bit means the index is already accumulated (issuance by default).
    inAccumulator: !list.revoked[index],
  }
}

function writeSignature(signature: PrimarySignature): Credential['signature']['p_credential'] {
  return {
    m_2: toDecimal(signature.m2),
    a: toDecimal(signature.a),
    e: toDecimal(signature.e),
    v: toDecimal(signature.v),
  }
}

/** A credential's revocation part: its non-revocation signature and the registry state it was issued with. */
export interface ParsedCredentialRevocation {
  revRegId: string
  signature: NonRevocationCredential
  accumulator: G2Point | null
  witness: G2Point | null
}

export interface ParsedCredential {
  json: Credential
  signature: PrimarySignature
  correctness: SignatureCorrectness
  values: CredentialValues
  /** Null for a credential issued without a revocation registry. */
  revocation: ParsedCredentialRevocation | null
}

function isAbsent(value: Json): boolean {
  return value === undefined || value === null
}

/** rev_reg.accum or witness.omega: null when absent, else a G2 point. */
function readRegistryPoint(value: Json, field: 'accum' | 'omega', path: string): G2Point | null {
  if (isAbsent(value)) return null
  const text = readObject(value, path)[field]
  return readingRevocation(`${path}.${field}`, () => parseG2(text, `${path}.${field}`, { allowInfinity: true }))
}

function readCredentialRevocation(
  credential: Record<string, Json>,
  signatureJson: Record<string, Json>,
  path: string,
): ParsedCredentialRevocation | null {
  const rPath = `${path}.signature.r_credential`
  const accumulator = readRegistryPoint(credential.rev_reg, 'accum', `${path}.rev_reg`)
  const witness = readRegistryPoint(credential.witness, 'omega', `${path}.witness`)
  if (isAbsent(signatureJson.r_credential)) {
    for (const field of ['rev_reg_id', 'rev_reg', 'witness'] as const) {
      if (!isAbsent(credential[field])) throw malformed(`${path}.${field}`, 'must be null without r_credential')
    }
    return null
  }
  if (isAbsent(credential.rev_reg_id)) throw malformed(`${path}.rev_reg_id`, 'is required with r_credential')
  if ((accumulator === null) !== (witness === null))
    throw malformed(`${path}.witness`, 'rev_reg and witness come together')
  return {
    revRegId: assertIdentifier(
      'revocationRegistryDefinitionId',
      readString(credential.rev_reg_id, `${path}.rev_reg_id`),
      `${path}.rev_reg_id`,
    ),
    signature: readingRevocation(rPath, () => readNonRevocationCredential(signatureJson.r_credential, rPath)),
    accumulator,
    witness,
  }
}

export function readCredential(value: Json, path = 'credential'): ParsedCredential {
  const credential = readObject(value, path)
  const signatureJson = readObject(credential.signature, `${path}.signature`)
  const revocation = readCredentialRevocation(credential, signatureJson, path)
  const primary = readObject(signatureJson.p_credential, `${path}.signature.p_credential`)
  const sp = `${path}.signature.p_credential`
  const signature: PrimarySignature = {
    m2: readBigint(primary.m_2, `${sp}.m_2`, { maxBits: 256 }),
    a: readBigint(primary.a, `${sp}.a`),
    e: readBigint(primary.e, `${sp}.e`, { maxBits: 1024 }),
    v: readBigint(primary.v, `${sp}.v`, { maxBits: 4096 }),
  }
  const proofJson = readObject(credential.signature_correctness_proof, `${path}.signature_correctness_proof`)
  const correctness: SignatureCorrectness = {
    se: readBigint(proofJson.se, `${path}.signature_correctness_proof.se`),
    c: readBigint(proofJson.c, `${path}.signature_correctness_proof.c`, { maxBits: 256 }),
  }
  const values = readCredentialValues(credential.values, `${path}.values`)
  const json: Credential = {
    schema_id: assertIdentifier('schemaId', readString(credential.schema_id, `${path}.schema_id`), `${path}.schema_id`),
    cred_def_id: assertIdentifier(
      'credentialDefinitionId',
      readString(credential.cred_def_id, `${path}.cred_def_id`),
      `${path}.cred_def_id`,
    ),
    rev_reg_id: revocation ? revocation.revRegId : null,
    values,
    signature: {
      p_credential: writeSignature(signature),
      r_credential: revocation ? formatNonRevocationCredential(revocation.signature) : null,
    },
    signature_correctness_proof: { se: toDecimal(correctness.se), c: toDecimal(correctness.c) },
    rev_reg: revocation?.accumulator ? { accum: formatG2(revocation.accumulator) } : null,
    witness: revocation?.witness ? { omega: formatG2(revocation.witness) } : null,
  }
  return { json, signature, correctness, values, revocation }
}

export interface ProcessCredentialOptions {
  credential: Json
  credentialRequestMetadata: Json
  linkSecret: string
  credentialDefinition: Json
  /** The definition of the credential's revocation registry; required for a revocable credential. */
  revocationRegistryDefinition?: Json
}

/**
 * The holder accepts a credential: unblinds v with v' from its request, then verifies the signature over every
 * attribute and its link secret and the issuer's correctness proof against the request nonce; for a revocable
 * credential also adds vr' to vr'' and checks the non-revocation signature and witness against the registry's
 * accumulator key. Returns the processed credential (a new object; the input is not changed) or throws
 * AnonCredsError('invalid').
 */
export function processCredential(options: ProcessCredentialOptions): Credential {
  return processParsedCredential(options, readCredential(options.credential))
}

/**
 * processCredential with its costliest single check, that the signature's e is prime (OpenSSL's 64 Miller-Rabin
 * rounds, 4-9 ms), done first off the event loop: the check inside then finds the answer remembered. The same
 * checks, errors and result as processCredential; the agent's loop serves its other exchanges meanwhile.
 */
export async function processCredentialOffLoop(options: ProcessCredentialOptions): Promise<Credential> {
  const parsed = readCredential(options.credential)
  await isProbablePrimeOffLoop(parsed.signature.e)
  return processParsedCredential(options, parsed)
}

function processParsedCredential(options: ProcessCredentialOptions, parsed: ParsedCredential): Credential {
  const metadata = readCredentialRequestMetadata(options.credentialRequestMetadata)
  const linkSecret = readLinkSecret(options.linkSecret)
  const definition = readCredentialDefinition(options.credentialDefinition)
  const { publicKey } = definition

  const values = valuesByCommonView(parsed.values, 'credential.values')
  if (values.has(LINK_SECRET_ATTRIBUTE)) throw malformed(`credential.values.${LINK_SECRET_ATTRIBUTE}`, 'is reserved')
  values.set(LINK_SECRET_ATTRIBUTE, linkSecret)
  for (const name of values.keys()) {
    if (!publicKey.r.has(name)) {
      throw new AnonCredsError(
        'invalid',
        `attribute '${name}' is not in the credential definition`,
        'credential.values',
      )
    }
  }
  for (const name of publicKey.r.keys()) {
    if (!values.has(name)) throw new AnonCredsError('invalid', `no value for attribute '${name}'`, 'credential.values')
  }
  const signature: PrimarySignature = { ...parsed.signature, v: parsed.signature.v + metadata.vPrime }
  if (!verifyPrimarySignature(publicKey, signature, parsed.correctness, values, metadata.nonce)) {
    throw new AnonCredsError(
      'invalid',
      'the credential signature or its correctness proof is invalid (tampered, wrong link secret, or another request)',
      'credential.signature',
    )
  }
  const rCredential = parsed.revocation
    ? processNonRevocation(
        parsed.revocation,
        parsed.json.cred_def_id,
        signature.m2,
        definition,
        metadata.vrPrime,
        options,
      )
    : null
  return {
    ...parsed.json,
    signature: {
      p_credential: writeSignature(signature),
      r_credential: rCredential ? formatNonRevocationCredential(rCredential) : null,
    },
  }
}

/**
 * The revocation half of processing. anoncreds-rs skips it silently when the registry definition or vr' is missing,
 * leaving a credential that can never prove non-revocation; we refuse instead.
 */
function processNonRevocation(
  revocation: ParsedCredentialRevocation,
  credDefId: string,
  m2: bigint,
  definition: ReturnType<typeof readCredentialDefinition>,
  vrPrime: bigint | null,
  options: ProcessCredentialOptions,
): NonRevocationCredential {
  const fail = (message: string, path: string): never => {
    throw new AnonCredsError('invalid', message, path)
  }
  const key = definition.revocation ?? fail('the credential definition has no revocation key', 'credentialDefinition')
  if (isAbsent(options.revocationRegistryDefinition))
    fail('a revocable credential needs its revocation registry definition', 'revocationRegistryDefinition')
  const registry = revocationRegistryDefinitionOf(options.revocationRegistryDefinition, 'revocationRegistryDefinition')
  if (registry.credDefId !== credDefId)
    fail('the revocation registry is for another credential definition', 'revocationRegistryDefinition.credDefId')
  const vr = vrPrime ?? fail('the request metadata has no vr_prime', 'credentialRequestMetadata')
  const signature = revocation.signature
  if (signature.i > registry.maxCredNum)
    fail('the revocation index is outside the registry', 'credential.signature.r_credential.i')
  // The two halves must sign the same credential context, or no presentation could link them.
  if (signature.m2 !== reduceToScalar(m2))
    fail('the revocation signature is for another credential context', 'credential.signature.r_credential.m2')
  const accumulator =
    revocation.accumulator ?? fail('the credential has no accumulator (rev_reg)', 'credential.rev_reg')
  const witness = revocation.witness ?? fail('the credential has no witness', 'credential.witness')
  const processed = withVrPrime(signature, vr)
  if (!checkNonRevocationSignature(key, registry.accumulatorKey, accumulator, witness, processed))
    fail(
      'the non-revocation signature or witness is invalid (tampered, another registry, or another request)',
      'credential.signature.r_credential',
    )
  return processed
}

/** Attribute names as the credential definition keys them (useful for tags and restrictions). */
export function credentialAttributeNames(credential: Credential): string[] {
  return Object.keys(credential.values).map(attributeCommonView)
}
