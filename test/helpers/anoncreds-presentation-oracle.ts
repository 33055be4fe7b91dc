/**
 * The world the presentation tests run in: two schemas and credential definitions from the committed fixtures
 * (test/fixtures/anoncreds-presentation/keys.json, made by scripts/anoncreds-presentation-fixtures.ts), a
 * "person" credential issued and processed by anoncreds-rs (the WASM build in @hyperledger/identus-sdk) and a
 * "license" credential issued and processed by our library, both for one link secret; plus the oracle's
 * presentation calls. Issuing takes a few seconds, so a test file builds the world once.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import {
  createCredential,
  createCredentialOffer,
  createCredentialRequest,
  createLinkSecret,
  encodeCredentialAttribute,
  processCredential,
} from '../../agent/src/anoncreds'
import { oracle as anoncredsRs } from './anoncreds-oracle'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

export interface IssuedCredential {
  issuerId: string
  schemaId: string
  credDefId: string
  schema: Json
  credentialDefinition: Json
  credential: Json
  values: Record<string, { raw: string; encoded: string }>
}

export interface PresentationOracle {
  nonce(): string
  createPresentation(request: Json, credential: Json, linkSecret: string): Json
  verifyPresentation(presentation: Json, request: Json): boolean
  /** anoncreds-rs answers some rejections with an error instead of false; both count as rejected. */
  verifyPresentationOrFalse(presentation: Json, request: Json): boolean
}

export interface OracleWorld {
  oracle: PresentationOracle
  person: IssuedCredential
  /** A second credential definition of the person schema (no credential issued under it). */
  personOtherKeyId: string
  license: IssuedCredential
  linkSecret: string
  otherLinkSecret: string
  schemas: Record<string, Json>
  credentialDefinitions: Record<string, Json>
  encode(raw: string): string
}

const PERSON = {
  name: 'Alice Smith',
  age: '30',
  height: '172',
  city: 'Lyon',
  email: 'alice@example.com',
  degree: 'Maths',
}
const LICENSE = { number: 'L-123', class: 'B', points: '3' }

export function presentationFixtures(): Record<'person' | 'personOtherKey' | 'license', Json> {
  return JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'anoncreds-presentation', 'keys.json'), 'utf8'))
}

export function loadPresentationOracle(): OracleWorld {
  const keys = presentationFixtures()
  const linkSecret = anoncredsRs.createLinkSecret()

  // Person: the oracle issues and the oracle's holder processes.
  const p = keys.person
  const offer = anoncredsRs.createCredentialOffer({
    schemaId: p.schemaId,
    credentialDefinitionId: p.credDefId,
    keyCorrectnessProof: p.keyCorrectnessProof,
  })
  const request = anoncredsRs.createCredentialRequest({
    credentialDefinition: p.credentialDefinition,
    linkSecret,
    linkSecretId: 'link-secret',
    credentialOffer: offer,
  })
  const personCredential = anoncredsRs.processCredential({
    credential: anoncredsRs.createCredential({
      credentialDefinition: p.credentialDefinition,
      credentialDefinitionPrivate: p.credentialDefinitionPrivate,
      credentialOffer: offer,
      credentialRequest: request.credentialRequest,
      attributeRawValues: PERSON,
    }),
    credentialRequestMetadata: request.credentialRequestMetadata,
    linkSecret,
    credentialDefinition: p.credentialDefinition,
  })

  // License: our issuer and our holder.
  const l = keys.license
  const ourOffer = createCredentialOffer({
    schemaId: l.schemaId,
    credentialDefinitionId: l.credDefId,
    keyCorrectnessProof: l.keyCorrectnessProof,
  })
  const ourRequest = createCredentialRequest({
    entropy: 'holder-entropy',
    credentialDefinition: l.credentialDefinition,
    linkSecret,
    linkSecretId: 'link-secret',
    credentialOffer: ourOffer,
  })
  const licenseCredential = processCredential({
    credential: createCredential({
      credentialDefinition: l.credentialDefinition,
      credentialDefinitionPrivate: l.credentialDefinitionPrivate,
      credentialOffer: ourOffer,
      credentialRequest: ourRequest.credentialRequest,
      attributeRawValues: LICENSE,
    }),
    credentialRequestMetadata: ourRequest.credentialRequestMetadata,
    linkSecret,
    credentialDefinition: l.credentialDefinition,
  }) as unknown as Json

  const schemas = { [p.schemaId]: p.schema, [l.schemaId]: l.schema }
  const other = keys.personOtherKey
  const credentialDefinitions = {
    [p.credDefId]: p.credentialDefinition,
    [other.credDefId]: other.credentialDefinition,
    [l.credDefId]: l.credentialDefinition,
  }
  const verify = (presentation: Json, presentationRequest: Json) =>
    anoncredsRs.verifyPresentation({ presentation, presentationRequest, schemas, credentialDefinitions })
  const presentationOracle: PresentationOracle = {
    nonce: () => anoncredsRs.createNonce(),
    createPresentation: (presentationRequest, credential, secret) =>
      anoncredsRs.createPresentation({
        presentationRequest,
        credential,
        linkSecret: secret,
        schemas,
        credentialDefinitions,
      }),
    verifyPresentation: verify,
    verifyPresentationOrFalse: (presentation, presentationRequest) => {
      try {
        return verify(presentation, presentationRequest)
      } catch {
        return false
      }
    },
  }
  const issued = (k: Json, credential: Json): IssuedCredential => ({
    issuerId: k.issuerId,
    schemaId: k.schemaId,
    credDefId: k.credDefId,
    schema: k.schema,
    credentialDefinition: k.credentialDefinition,
    credential,
    values: credential.values,
  })
  return {
    oracle: presentationOracle,
    person: issued(p, personCredential),
    personOtherKeyId: other.credDefId,
    license: issued(l, licenseCredential),
    linkSecret,
    otherLinkSecret: createLinkSecret(),
    schemas,
    credentialDefinitions,
    encode: encodeCredentialAttribute,
  }
}
