import type { AgentContext } from '@credo-ts/core'

import { offlineDocumentLoader } from './offline-document-loader'

interface ActiveContext {
  mappings: Map<string, unknown>
  clone(): ActiveContext
}
interface JsonLd {
  expand(document: unknown, options: object): Promise<unknown>
  canonize(document: unknown, options: object): Promise<string>
  processContext(active: ActiveContext | null, context: unknown, options: object): Promise<ActiveContext>
}

/* eslint-disable @typescript-eslint/no-require-imports -- a fresh module registry needs require */
/** A copy of jsonld.js of its own (its caches included), with or without the shared term definitions. */
function loadJsonLd(sharing: boolean): JsonLd {
  let jsonld: JsonLd | undefined
  jest.isolateModules(() => {
    if (sharing) {
      const { shareTermDefinitions } =
        require('./shared-term-definitions') as typeof import('./shared-term-definitions')
      shareTermDefinitions()
    }
    jsonld = require('@digitalcredentials/jsonld') as JsonLd
  })
  if (jsonld === undefined) throw new Error('jsonld.js did not load')
  return jsonld
}
/* eslint-enable @typescript-eslint/no-require-imports */

// The agent's own loader; the contexts used here need no DID resolver.
const agentContext = { dependencyManager: { resolve: () => ({}) } } as unknown as AgentContext
const options = { base: null, safe: true, documentLoader: offlineDocumentLoader(agentContext) }

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
const credential = {
  '@context': CONTEXTS,
  type: ['VerifiableCredential', 'UniversityDegreeCredential'],
  issuer: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
  issuanceDate: '2026-11-30T00:00:00Z',
  credentialSubject: { id: 'did:example:subject', degree: { type: 'BachelorDegree', name: 'Bachelor of Arts' } },
}
const signedCredential = {
  ...credential,
  proof: {
    type: 'Ed25519Signature2020',
    created: '2026-11-30T00:00:00Z',
    verificationMethod: 'did:example:issuer#key-1',
    proofPurpose: 'assertionMethod',
    proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKods5D2UAUL5n2Brbx',
  },
}
const presentation = {
  '@context': CONTEXTS,
  type: ['VerifiablePresentation'],
  holder: 'did:example:subject',
  verifiableCredential: [signedCredential],
}
const proofOptions = {
  '@context': CONTEXTS,
  type: 'Ed25519Signature2020',
  created: '2026-11-30T00:00:00Z',
  verificationMethod: 'did:example:issuer#key-1',
  proofPurpose: 'assertionMethod',
}
// A type-scoped context (not propagated into nested nodes) and a property-scoped one (propagated), each giving
// `name` another meaning, with a sibling and a nested node that must keep or regain the outer meaning.
const scoped = {
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
const protectedRedefinition = {
  '@context': [
    { '@version': 1.1, '@protected': true, ex: 'https://example.org/', name: 'ex:name' },
    { name: 'ex:other' },
  ],
  name: 'x',
}

describe('shareTermDefinitions', () => {
  const stock = loadJsonLd(false)
  const sharing = loadJsonLd(true)

  it('lets a child context hold its parent term definitions (stock jsonld.js copies them)', async () => {
    const context = { '@version': 1.1, name: 'https://example.org/name' }
    const stockContext = await stock.processContext(await stock.processContext(null, null, options), context, options)
    const sharingContext = await sharing.processContext(
      await sharing.processContext(null, null, options),
      context,
      options,
    )
    expect(stockContext.clone().mappings.get('name')).not.toBe(stockContext.mappings.get('name'))
    expect(sharingContext.clone().mappings.get('name')).toBe(sharingContext.mappings.get('name'))
    expect(sharingContext.clone().mappings).not.toBe(sharingContext.mappings)
  })

  it('expands and canonicalizes exactly as stock jsonld.js, the same document repeated and interleaved', async () => {
    const inputs = [credential, presentation, proofOptions, scoped, signedCredential, credential, scoped, presentation]
    for (const input of inputs) {
      expect(await sharing.expand(input, options)).toEqual(await stock.expand(input, options))
      expect(await sharing.canonize(input, { ...options, algorithm: 'URDNA2015', format: 'application/n-quads' })).toBe(
        await stock.canonize(input, { ...options, algorithm: 'URDNA2015', format: 'application/n-quads' }),
      )
    }
    const expanded = JSON.stringify(await sharing.expand(scoped, options))
    expect(expanded).toContain('https://example.org/personName')
    expect(expanded).toContain('https://example.org/knownName')
  })

  it('still refuses a protected term redefined, and the refusal leaves the outer definitions intact', async () => {
    await expect(stock.expand(protectedRedefinition, options)).rejects.toMatchObject({
      details: { code: 'protected term redefinition' },
    })
    await expect(sharing.expand(protectedRedefinition, options)).rejects.toMatchObject({
      details: { code: 'protected term redefinition' },
    })
    expect(await sharing.expand(scoped, options)).toEqual(await stock.expand(scoped, options))
  })
})
