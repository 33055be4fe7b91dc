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
import { toDecimal } from './math'
import { readAbsent, readBigint, readObject, readString, type Json } from './read'
import type { Credential, CredentialValues } from './types'

export interface CreateCredentialOptions {
  credentialDefinition: Json
  credentialDefinitionPrivate: Json
  credentialOffer: Json
  credentialRequest: Json
  /** Raw values by attribute name; encoded as anoncreds-rs does unless attributeEncodedValues names one. */
  attributeRawValues: Record<string, string>
  attributeEncodedValues?: Record<string, string>
  revocationConfiguration?: undefined
}

/**
 * The issuer signs: checks the holder's blinded link secret proof against the offer's nonce, then signs every
 * attribute of the definition (all must be given, no others) and proves the signature bound to the request nonce.
 */
export function createCredential(options: CreateCredentialOptions): Credential {
  if (options.revocationConfiguration !== undefined) {
    throw new AnonCredsError('unsupported', 'revocation is not supported yet', 'revocationConfiguration')
  }
  const { publicKey } = readCredentialDefinition(options.credentialDefinition)
  const privateKey = readCredentialDefinitionPrivate(options.credentialDefinitionPrivate, publicKey)
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
  const m2 = credentialContext(request.entropy)
  const { signature, correctness } = guarded('createCredential', () =>
    signPrimary(publicKey, privateKey, request.blinded.u, m2, known, request.nonce),
  )
  return {
    schema_id: offer.json.schema_id,
    cred_def_id: offer.json.cred_def_id,
    rev_reg_id: null,
    values,
    signature: { p_credential: writeSignature(signature), r_credential: null },
    signature_correctness_proof: { se: toDecimal(correctness.se), c: toDecimal(correctness.c) },
    rev_reg: null,
    witness: null,
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

export interface ParsedCredential {
  json: Credential
  signature: PrimarySignature
  correctness: SignatureCorrectness
  values: CredentialValues
}

export function readCredential(value: Json, path = 'credential'): ParsedCredential {
  const credential = readObject(value, path)
  for (const field of ['rev_reg_id', 'rev_reg', 'witness'] as const) readAbsent(credential[field], `${path}.${field}`)
  const signatureJson = readObject(credential.signature, `${path}.signature`)
  readAbsent(signatureJson.r_credential, `${path}.signature.r_credential`)
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
    rev_reg_id: null,
    values,
    signature: { p_credential: writeSignature(signature), r_credential: null },
    signature_correctness_proof: { se: toDecimal(correctness.se), c: toDecimal(correctness.c) },
    rev_reg: null,
    witness: null,
  }
  return { json, signature, correctness, values }
}

export interface ProcessCredentialOptions {
  credential: Json
  credentialRequestMetadata: Json
  linkSecret: string
  credentialDefinition: Json
  revocationRegistryDefinition?: undefined
}

/**
 * The holder accepts a credential: unblinds v with v' from its request, then verifies the signature over every
 * attribute and its link secret and the issuer's correctness proof against the request nonce. Returns the
 * processed credential (a new object; the input is not changed) or throws AnonCredsError('invalid').
 */
export function processCredential(options: ProcessCredentialOptions): Credential {
  if (options.revocationRegistryDefinition !== undefined) {
    throw new AnonCredsError('unsupported', 'revocation is not supported yet', 'revocationRegistryDefinition')
  }
  const parsed = readCredential(options.credential)
  const metadata = readCredentialRequestMetadata(options.credentialRequestMetadata)
  const linkSecret = readLinkSecret(options.linkSecret)
  const { publicKey } = readCredentialDefinition(options.credentialDefinition)

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
  return {
    ...parsed.json,
    signature: { p_credential: writeSignature(signature), r_credential: null },
  }
}

/** Attribute names as the credential definition keys them (useful for tags and restrictions). */
export function credentialAttributeNames(credential: Credential): string[] {
  return Object.keys(credential.values).map(attributeCommonView)
}
