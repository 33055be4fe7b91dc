import type { KeyCorrectness } from './cl/primary-key'
import { LARGE_NONCE } from './cl/constants'
import { readKeyCorrectnessProof, writeKeyCorrectnessProof } from './credential-definition'
import { assertIdentifier } from './identifiers'
import { randomBits, toDecimal } from './math'
import { readNonce, readObject, readOptionalString, readString, type Json } from './read'
import type { CredentialOffer } from './types'

/** A fresh 80-bit nonce in decimal, as anoncreds-rs's Nonce::new. */
export function createNonce(): string {
  return toDecimal(randomBits(LARGE_NONCE))
}

export function createCredentialOffer(options: {
  schemaId: string
  credentialDefinitionId: string
  keyCorrectnessProof: Json
}): CredentialOffer {
  return {
    schema_id: assertIdentifier('schemaId', readString(options.schemaId, 'schemaId'), 'schemaId'),
    cred_def_id: assertIdentifier(
      'credentialDefinitionId',
      readString(options.credentialDefinitionId, 'credentialDefinitionId'),
      'credentialDefinitionId',
    ),
    key_correctness_proof: writeKeyCorrectnessProof(readKeyCorrectnessProof(options.keyCorrectnessProof)),
    nonce: createNonce(),
  }
}

export interface ParsedCredentialOffer {
  json: CredentialOffer
  keyCorrectness: KeyCorrectness
  nonce: bigint
}

export function readCredentialOffer(value: Json, path = 'credentialOffer'): ParsedCredentialOffer {
  const offer = readObject(value, path)
  const keyCorrectness = readKeyCorrectnessProof(offer.key_correctness_proof, `${path}.key_correctness_proof`)
  const nonce = readNonce(offer.nonce, `${path}.nonce`)
  const methodName = readOptionalString(offer.method_name, `${path}.method_name`)
  const json: CredentialOffer = {
    schema_id: assertIdentifier('schemaId', readString(offer.schema_id, `${path}.schema_id`), `${path}.schema_id`),
    cred_def_id: assertIdentifier(
      'credentialDefinitionId',
      readString(offer.cred_def_id, `${path}.cred_def_id`),
      `${path}.cred_def_id`,
    ),
    key_correctness_proof: writeKeyCorrectnessProof(keyCorrectness),
    nonce: toDecimal(nonce),
    ...(methodName === undefined ? {} : { method_name: methodName }),
  }
  return { json, keyCorrectness, nonce }
}
