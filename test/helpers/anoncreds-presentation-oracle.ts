/**
 * The world the presentation tests run in: two schemas and credential definitions from the committed fixtures
 * (test/fixtures/anoncreds-presentation/keys.json, made by scripts/anoncreds-presentation-fixtures.ts), a
 * "person" credential issued and processed by anoncreds-rs (the WASM build in @hyperledger/identus-sdk) and a
 * "license" credential issued and processed by our library, both for one link secret; plus the oracle's
 * presentation calls. Issuing takes a few seconds, so a test file builds the world once.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

import {
  createCredential,
  createCredentialOffer,
  createCredentialRequest,
  createLinkSecret,
  encodeCredentialAttribute,
  processCredential,
} from '../../agent/src/anoncreds'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

interface WasmObject {
  toJSON(): unknown
}
type From = { from(json: unknown): WasmObject }
interface AnonCredsWasm {
  initSync(options: { module: Uint8Array }): unknown
  Issuer: {
    createCredentialOffer(schemaId: string, credDefId: string, kcp: WasmObject): WasmObject
    createCredential(
      credDef: WasmObject,
      priv: WasmObject,
      offer: WasmObject,
      request: WasmObject,
      values: Record<string, string>,
    ): WasmObject
  }
  Prover: {
    createLinkSecret(): { toString(): string }
    createCredentialRequest(
      credDef: WasmObject,
      linkSecret: WasmObject,
      id: string,
      offer: WasmObject,
    ): { request: WasmObject; metadata: WasmObject }
    processCredential(
      credential: WasmObject,
      metadata: WasmObject,
      linkSecret: WasmObject,
      credDef: WasmObject,
    ): WasmObject
    createPresentation(
      request: WasmObject,
      credential: WasmObject,
      linkSecret: WasmObject,
      schemas: Record<string, WasmObject>,
      credDefs: Record<string, WasmObject>,
    ): WasmObject
  }
  Verifier: {
    createNonce(): string
    verifyPresentation(
      p: WasmObject,
      request: WasmObject,
      schemas: Record<string, WasmObject>,
      credDefs: Record<string, WasmObject>,
    ): boolean
  }
  CredentialSchema: From
  CredentialDefinition: From
  CredentialDefinitionPrivate: From
  CredentialKeyCorrectnessProof: From
  CredentialOffer: From
  Credential: From
  PresentationRequest: From
  Presentation: From
  LinkSecret: { fromString(value: string): WasmObject }
}

const BUILD_DIR = join(__dirname, '..', '..', 'node_modules', '@hyperledger', 'identus-sdk', 'build')
let wasm: AnonCredsWasm | undefined
// The glue is CommonJS built outside our sources; loading it by path keeps it out of the type graph.
const loadBuilt = createRequire(__filename)

/** anoncreds-rs as identus-sdk ships it: wasm-bindgen glue plus the module bytes from a shared chunk. */
export function anonCredsWasm(): AnonCredsWasm {
  if (wasm) return wasm
  const glue = loadBuilt(join(BUILD_DIR, 'anoncreds_wasm-QQEKKZ4I.js')) as AnonCredsWasm
  glue.initSync({ module: (loadBuilt(join(BUILD_DIR, 'chunk-55WTQX7X.js')) as { f: Uint8Array }).f })
  wasm = glue
  return glue
}

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

export function presentationFixtures(): Record<'person' | 'license', Json> {
  return JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'anoncreds-presentation', 'keys.json'), 'utf8'))
}

export function loadPresentationOracle(): OracleWorld {
  const w = anonCredsWasm()
  const keys = presentationFixtures()
  const linkSecret = w.Prover.createLinkSecret().toString()

  // Person: the oracle issues and the oracle's holder processes.
  const p = keys.person
  const offer = w.Issuer.createCredentialOffer(
    p.schemaId,
    p.credDefId,
    w.CredentialKeyCorrectnessProof.from(p.keyCorrectnessProof),
  )
  const { request, metadata } = w.Prover.createCredentialRequest(
    w.CredentialDefinition.from(p.credentialDefinition),
    w.LinkSecret.fromString(linkSecret),
    'link-secret',
    w.CredentialOffer.from(offer.toJSON()),
  )
  const signed = w.Issuer.createCredential(
    w.CredentialDefinition.from(p.credentialDefinition),
    w.CredentialDefinitionPrivate.from(p.credentialDefinitionPrivate),
    w.CredentialOffer.from(offer.toJSON()),
    request,
    PERSON,
  )
  const personCredential = w.Prover.processCredential(
    signed,
    metadata,
    w.LinkSecret.fromString(linkSecret),
    w.CredentialDefinition.from(p.credentialDefinition),
  ).toJSON() as Json

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
  const credentialDefinitions = { [p.credDefId]: p.credentialDefinition, [l.credDefId]: l.credentialDefinition }
  const wasmSchemas = () =>
    Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, w.CredentialSchema.from(s)]))
  const wasmCredDefs = () =>
    Object.fromEntries(Object.entries(credentialDefinitions).map(([id, d]) => [id, w.CredentialDefinition.from(d)]))
  const verify = (presentation: Json, req: Json) =>
    w.Verifier.verifyPresentation(
      w.Presentation.from(presentation),
      w.PresentationRequest.from(req),
      wasmSchemas(),
      wasmCredDefs(),
    )

  const oracle: PresentationOracle = {
    nonce: () => w.Verifier.createNonce(),
    createPresentation: (req, credential, secret) =>
      w.Prover.createPresentation(
        w.PresentationRequest.from(req),
        w.Credential.from(credential),
        w.LinkSecret.fromString(secret),
        wasmSchemas(),
        wasmCredDefs(),
      ).toJSON() as Json,
    verifyPresentation: verify,
    verifyPresentationOrFalse: (presentation, req) => {
      try {
        return verify(presentation, req)
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
    oracle,
    person: issued(p, personCredential),
    license: issued(l, licenseCredential),
    linkSecret,
    otherLinkSecret: createLinkSecret(),
    schemas,
    credentialDefinitions,
    encode: encodeCredentialAttribute,
  }
}
