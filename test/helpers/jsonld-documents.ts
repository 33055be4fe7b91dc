import type { AgentContext } from '@credo-ts/core'

import { offlineDocumentLoader } from '../../agent/src/formats/jsonld/offline-document-loader'

/**
 * Copies of jsonld.js as the agent changes it (agent/src/formats/jsonld/: shared term definitions, processed contexts
 * by key) and documents that exercise those changes: the credential, presentation and proof options the agent
 * canonicalizes, and scoped and protected contexts.
 */

export interface ActiveContext {
  mappings: Map<string, unknown>
  clone(): ActiveContext
}
export interface JsonLd {
  expand(document: unknown, options: object): Promise<unknown>
  canonize(document: unknown, options: object): Promise<string>
  processContext(active: ActiveContext | null, context: unknown, options: object): Promise<ActiveContext>
}

/** `stock`, `sharing` (shared term definitions) or `cached` (those and processed contexts kept by key). */
export type JsonLdVariant = 'stock' | 'sharing' | 'cached'

/* eslint-disable @typescript-eslint/no-require-imports -- a fresh module registry needs require */
/**
 * Installs the agent's changes of `variant` (none for `stock`) on the copy of jsonld.js that loads next: in a fresh
 * module registry (jest.isolateModules), or after jsonld.js and these modules left the require cache (the benchmark).
 */
export function installJsonLdChanges(variant: JsonLdVariant): void {
  if (variant !== 'stock') {
    const { shareTermDefinitions } =
      require('../../agent/src/formats/jsonld/shared-term-definitions') as typeof import('../../agent/src/formats/jsonld/shared-term-definitions')
    shareTermDefinitions()
  }
  if (variant === 'cached') {
    const { cacheProcessedContexts } =
      require('../../agent/src/formats/jsonld/processed-contexts') as typeof import('../../agent/src/formats/jsonld/processed-contexts')
    cacheProcessedContexts()
  }
}

/**
 * A copy of jsonld.js of its own (its caches included), stock or as the agent changes it, and a count of the term
 * definitions it has made (jsonld.js defines a term each time it processes a context that has not been kept).
 */
export function loadCountingJsonLd(variant: JsonLdVariant): { jsonld: JsonLd; definitions: () => number } {
  let jsonld: JsonLd | undefined
  let count = 0
  jest.isolateModules(() => {
    installJsonLdChanges(variant)
    const context = require('@digitalcredentials/jsonld/lib/context') as {
      createTermDefinition: (this: unknown, ...args: unknown[]) => unknown
    }
    const define = context.createTermDefinition
    context.createTermDefinition = function (this: unknown, ...args: unknown[]) {
      count++
      return define.apply(this, args)
    }
    jsonld = require('@digitalcredentials/jsonld') as JsonLd
  })
  if (jsonld === undefined) throw new Error('jsonld.js did not load')
  return { jsonld, definitions: () => count }
}

/** A copy of jsonld.js of its own (its caches included), stock or as the agent changes it. */
export function loadJsonLd(variant: JsonLdVariant): JsonLd {
  return loadCountingJsonLd(variant).jsonld
}
/* eslint-enable @typescript-eslint/no-require-imports */

// The agent's own loader; the contexts used here need no DID resolver.
const agentContext = { dependencyManager: { resolve: () => ({}) } } as unknown as AgentContext
export const options = { base: null, safe: true, documentLoader: offlineDocumentLoader(agentContext) }
export const canonizeOptions = { ...options, algorithm: 'URDNA2015', format: 'application/n-quads' }

const CONTEXTS = [
  'https://www.w3.org/2018/credentials/v1',
  'https://w3id.org/security/suites/ed25519-2020/v1',
  {
    UniversityDegreeCredential: 'https://example.org/UniversityDegreeCredential',
    BachelorDegree: 'https://example.org/BachelorDegree',
    degree: 'https://example.org/degree',
    name: 'https://schema.org/name',
  },
]
export const credential = {
  '@context': CONTEXTS,
  type: ['VerifiableCredential', 'UniversityDegreeCredential'],
  issuer: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
  issuanceDate: '2026-11-30T00:00:00Z',
  credentialSubject: { id: 'did:example:subject', degree: { type: 'BachelorDegree', name: 'Bachelor of Arts' } },
}
export const signedCredential = {
  ...credential,
  proof: {
    type: 'Ed25519Signature2020',
    created: '2026-11-30T00:00:00Z',
    verificationMethod: 'did:example:issuer#key-1',
    proofPurpose: 'assertionMethod',
    proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKods5D2UAUL5n2Brbx',
  },
}
export const presentation = {
  '@context': CONTEXTS,
  type: ['VerifiablePresentation'],
  holder: 'did:example:subject',
  verifiableCredential: [signedCredential],
}
export const proofOptions = {
  '@context': CONTEXTS,
  type: 'Ed25519Signature2020',
  created: '2026-11-30T00:00:00Z',
  verificationMethod: 'did:example:issuer#key-1',
  proofPurpose: 'assertionMethod',
}
// A type-scoped context (not propagated into nested nodes) and a property-scoped one (propagated), each giving
// `name` another meaning, with a sibling and a nested node that must keep or regain the outer meaning.
export const scoped = {
  '@context': {
    '@version': 1.1,
    ex: 'https://example.org/',
    name: 'ex:name',
    Person: { '@id': 'ex:Person', '@context': { name: 'ex:personName' } },
    knows: { '@id': 'ex:knows', '@context': { name: 'ex:knownName' } },
  },
  '@id': 'ex:a',
  '@type': 'Person',
  name: 'A',
  'ex:friend': { '@id': 'ex:b', name: 'B', knows: { '@id': 'ex:c', name: 'C', '@type': 'Person' } },
  knows: { '@id': 'ex:d', name: 'D', 'ex:friend': { '@id': 'ex:e', name: 'E' } },
}
export const protectedRedefinition = {
  '@context': [
    { '@version': 1.1, '@protected': true, ex: 'https://example.org/', name: 'ex:name' },
    { name: 'ex:other' },
  ],
  name: 'x',
}
