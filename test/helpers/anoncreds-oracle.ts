/**
 * anoncreds-rs as a test oracle: the WASM build that @hyperledger/identus-sdk ships (its own plugin loads it
 * the same way: the wasm-bindgen glue module plus the module bytes embedded base64 in a shared chunk).
 * Every function takes and returns the anoncreds-rs JSON objects, so our library and the oracle exchange
 * exactly what two agents would. The oracle throws whatever the WASM throws (an Error with its message).
 *
 * The chunk and glue file names are content hashes of identus-sdk 7.x's build; bumping the package means
 * updating ORACLE_FILES (the helper fails loudly with the directory listing otherwise).
 */
import { existsSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const BUILD_DIR = join(__dirname, '..', '..', 'node_modules', '@hyperledger', 'identus-sdk', 'build')
const ORACLE_FILES = { glue: 'anoncreds_wasm-QQEKKZ4I.js', wasmChunk: 'chunk-55WTQX7X.js' }

/** The subset of the wasm-bindgen classes we call; instances wrap WASM memory and expose toJSON(). */
interface WasmObject {
  toJSON(): unknown
}
interface AnonCredsWasm {
  initSync(options: { module: Uint8Array }): unknown
  Issuer: {
    createSchema(name: string, version: string, issuerId: string, attrNames: string[]): WasmObject
    createCredentialDefinition(
      schemaId: string,
      schema: WasmObject,
      issuerId: string,
      tag: string,
    ): { credentialDefinition: WasmObject; credentialDefinitionPrivate: WasmObject; keyCorrectnessProof: WasmObject }
    createCredentialOffer(schemaId: string, credDefId: string, kcp: WasmObject): WasmObject
    createCredential(
      credDef: WasmObject,
      credDefPrivate: WasmObject,
      offer: WasmObject,
      request: WasmObject,
      values: unknown,
    ): WasmObject
  }
  Prover: {
    createLinkSecret(): { toString(): string }
    createCredentialRequest(
      credDef: WasmObject,
      linkSecret: WasmObject,
      linkSecretId: string,
      offer: WasmObject,
    ): { request: WasmObject; metadata: WasmObject }
    processCredential(
      credential: WasmObject,
      metadata: WasmObject,
      linkSecret: WasmObject,
      credDef: WasmObject,
    ): WasmObject
    createPresentation(
      presentationRequest: WasmObject,
      credential: WasmObject,
      linkSecret: WasmObject,
      schemas: Record<string, WasmObject>,
      credentialDefinitions: Record<string, WasmObject>,
    ): WasmObject
  }
  Verifier: {
    createNonce(): string
    verifyPresentation(
      presentation: WasmObject,
      presentationRequest: WasmObject,
      schemas: Record<string, WasmObject>,
      credentialDefinitions: Record<string, WasmObject>,
    ): boolean
  }
  CredentialSchema: { from(json: unknown): WasmObject }
  CredentialDefinition: { from(json: unknown): WasmObject }
  CredentialDefinitionPrivate: { from(json: unknown): WasmObject }
  CredentialKeyCorrectnessProof: { from(json: unknown): WasmObject }
  CredentialOffer: { from(json: unknown): WasmObject }
  CredentialRequest: { from(json: unknown): WasmObject }
  CredentialRequestMetadata: { from(json: unknown): WasmObject }
  Credential: { from(json: unknown): WasmObject }
  LinkSecret: { fromString(value: string): WasmObject }
  PresentationRequest: { from(json: unknown): WasmObject }
  Presentation: { from(json: unknown): WasmObject }
}

let loaded: AnonCredsWasm | undefined

/** The initialized WASM module (loaded once per process, about 0.3 s). */
export function anonCredsWasm(): AnonCredsWasm {
  if (loaded) return loaded
  for (const file of Object.values(ORACLE_FILES)) {
    if (!existsSync(join(BUILD_DIR, file))) {
      const candidates = readdirSync(BUILD_DIR).filter(
        (name) => name.startsWith('anoncreds_wasm') || name.startsWith('chunk-'),
      )
      throw new Error(
        `anoncreds oracle: ${file} not found in ${BUILD_DIR} (identus-sdk changed?); have ${candidates.join(', ')}`,
      )
    }
  }
  // Node's own require: the glue and the 5 MB chunk are plain CommonJS and need no test transform.
  const load = createRequire(__filename)
  const glue = load(join(BUILD_DIR, ORACLE_FILES.glue)) as AnonCredsWasm
  // The chunk exports the anoncreds module bytes as `f` (the identus plugin passes exactly that to initSync).
  const chunk = load(join(BUILD_DIR, ORACLE_FILES.wasmChunk)) as { f: Uint8Array }
  glue.initSync({ module: chunk.f })
  loaded = glue
  return glue
}

type Json = Record<string, unknown>

const fromJson = (json: unknown): unknown => JSON.parse(JSON.stringify(json))

export const oracle = {
  createSchema(options: { name: string; version: string; issuerId: string; attributeNames: string[] }): Json {
    const w = anonCredsWasm()
    return w.Issuer.createSchema(
      options.name,
      options.version,
      options.issuerId,
      options.attributeNames,
    ).toJSON() as Json
  },

  /** Takes minutes on the CI machine (safe primes in WASM): tests use the committed fixtures instead. */
  createCredentialDefinition(options: { schemaId: string; schema: object; issuerId: string; tag: string }): {
    credentialDefinition: Json
    credentialDefinitionPrivate: Json
    keyCorrectnessProof: Json
  } {
    const w = anonCredsWasm()
    const result = w.Issuer.createCredentialDefinition(
      options.schemaId,
      w.CredentialSchema.from(fromJson(options.schema)),
      options.issuerId,
      options.tag,
    )
    return {
      credentialDefinition: result.credentialDefinition.toJSON() as Json,
      credentialDefinitionPrivate: result.credentialDefinitionPrivate.toJSON() as Json,
      keyCorrectnessProof: result.keyCorrectnessProof.toJSON() as Json,
    }
  },

  createCredentialOffer(options: {
    schemaId: string
    credentialDefinitionId: string
    keyCorrectnessProof: object
  }): Json {
    const w = anonCredsWasm()
    return w.Issuer.createCredentialOffer(
      options.schemaId,
      options.credentialDefinitionId,
      w.CredentialKeyCorrectnessProof.from(fromJson(options.keyCorrectnessProof)),
    ).toJSON() as Json
  },

  createLinkSecret(): string {
    return anonCredsWasm().Prover.createLinkSecret().toString()
  },

  createNonce(): string {
    return anonCredsWasm().Verifier.createNonce()
  },

  createCredentialRequest(options: {
    credentialDefinition: object
    linkSecret: string
    linkSecretId: string
    credentialOffer: object
  }): { credentialRequest: object; credentialRequestMetadata: object } {
    const w = anonCredsWasm()
    const result = w.Prover.createCredentialRequest(
      w.CredentialDefinition.from(fromJson(options.credentialDefinition)),
      w.LinkSecret.fromString(options.linkSecret),
      options.linkSecretId,
      w.CredentialOffer.from(fromJson(options.credentialOffer)),
    )
    return {
      credentialRequest: result.request.toJSON() as Json,
      credentialRequestMetadata: result.metadata.toJSON() as Json,
    }
  },

  createCredential(options: {
    credentialDefinition: object
    credentialDefinitionPrivate: object
    credentialOffer: object
    credentialRequest: object
    attributeRawValues: Record<string, string>
  }): Json {
    const w = anonCredsWasm()
    return w.Issuer.createCredential(
      w.CredentialDefinition.from(fromJson(options.credentialDefinition)),
      w.CredentialDefinitionPrivate.from(fromJson(options.credentialDefinitionPrivate)),
      w.CredentialOffer.from(fromJson(options.credentialOffer)),
      w.CredentialRequest.from(fromJson(options.credentialRequest)),
      ORACLE_VALUES(options.attributeRawValues),
    ).toJSON() as Json
  },

  processCredential(options: {
    credential: object
    credentialRequestMetadata: object
    linkSecret: string
    credentialDefinition: object
  }): Json {
    const w = anonCredsWasm()
    return w.Prover.processCredential(
      w.Credential.from(fromJson(options.credential)),
      w.CredentialRequestMetadata.from(fromJson(options.credentialRequestMetadata)),
      w.LinkSecret.fromString(options.linkSecret),
      w.CredentialDefinition.from(fromJson(options.credentialDefinition)),
    ).toJSON() as Json
  },

  /** identus's build proves over one credential per presentation (its createPresentation takes one). */
  createPresentation(options: {
    presentationRequest: object
    credential: object
    linkSecret: string
    schemas: Record<string, object>
    credentialDefinitions: Record<string, object>
  }): Json {
    const w = anonCredsWasm()
    return w.Prover.createPresentation(
      w.PresentationRequest.from(fromJson(options.presentationRequest)),
      w.Credential.from(fromJson(options.credential)),
      w.LinkSecret.fromString(options.linkSecret),
      mapValues(options.schemas, (schema) => w.CredentialSchema.from(fromJson(schema))),
      mapValues(options.credentialDefinitions, (definition) => w.CredentialDefinition.from(fromJson(definition))),
    ).toJSON() as Json
  },

  verifyPresentation(options: {
    presentation: object
    presentationRequest: object
    schemas: Record<string, object>
    credentialDefinitions: Record<string, object>
  }): boolean {
    const w = anonCredsWasm()
    return w.Verifier.verifyPresentation(
      w.Presentation.from(fromJson(options.presentation)),
      w.PresentationRequest.from(fromJson(options.presentationRequest)),
      mapValues(options.schemas, (schema) => w.CredentialSchema.from(fromJson(schema))),
      mapValues(options.credentialDefinitions, (definition) => w.CredentialDefinition.from(fromJson(definition))),
    )
  },
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]))
}

/** The value shape identus's createCredential takes (TBD: confirmed by the fixtures script). */
function ORACLE_VALUES(raw: Record<string, string>): unknown {
  return raw
}
