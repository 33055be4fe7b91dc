import { type AgentContext, DidDocument, didDocumentToNumAlgo4Did, JsonTransformer } from '@credo-ts/core'

import { CachingKeyDidResolver, CachingPeerDidResolver, ImmutableDidDocumentCache } from './caching-did-resolvers'

const agentContext = {
  config: { logger: { error: () => undefined } },
  dependencyManager: { resolve: () => ({}) },
} as unknown as AgentContext

function longFormPeer4(): string {
  const didDocument = JsonTransformer.fromJSON(
    {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: '#id',
      verificationMethod: [
        {
          id: '#key-1',
          type: 'Ed25519VerificationKey2018',
          controller: '#id',
          publicKeyBase58: 'ByHnpUCFb1vAfh9CFZ8ZkmUZguURW8nSw889hy6rD8L7',
        },
      ],
      authentication: ['#key-1'],
      service: [
        {
          id: '#didcomm-1',
          type: 'did-communication',
          serviceEndpoint: 'http://127.0.0.1:9002',
          recipientKeys: ['#key-1'],
          priority: 0,
        },
      ],
    },
    DidDocument,
  )
  return didDocumentToNumAlgo4Did(didDocument).longFormDid
}

describe('CachingPeerDidResolver', () => {
  it('resolves a long-form did:peer:4 once and hands out a new, equal document each time', async () => {
    const cache = new ImmutableDidDocumentCache()
    const resolver = new CachingPeerDidResolver(cache)
    const did = longFormPeer4()
    const first = await resolver.resolve(agentContext, did)
    expect(first.didDocument?.id).toBe(did)
    expect(cache.size).toBe(1)
    const second = await resolver.resolve(agentContext, did)
    expect(second.didDocument).toBeInstanceOf(DidDocument)
    expect(second.didDocument).not.toBe(first.didDocument)
    expect(second.didDocument?.toJSON()).toEqual(first.didDocument?.toJSON())
    expect(second.didResolutionMetadata).toEqual(first.didResolutionMetadata)
  })

  it('does not cache a failed resolution (hash mismatch)', async () => {
    const cache = new ImmutableDidDocumentCache()
    const resolver = new CachingPeerDidResolver(cache)
    const did = longFormPeer4()
    const tampered = `${did.slice(0, 12)}${did[12] === 'A' ? 'B' : 'A'}${did.slice(13)}`
    const result = await resolver.resolve(agentContext, tampered)
    expect(result.didDocument).toBeNull()
    expect(cache.size).toBe(0)
  })

  it('resolves a short-form did:peer:4 through its stored long form, and through the cache', async () => {
    const longForm = longFormPeer4()
    const shortForm = longForm.split(':').slice(0, 3).join(':')
    const lookups: string[] = []
    const withRecords = {
      ...agentContext,
      dependencyManager: {
        resolve: () => ({
          findAllByDid: (_context: unknown, did: string) => {
            lookups.push(did)
            return Promise.resolve(did === shortForm ? [{ did: longForm }] : [])
          },
        }),
      },
    } as unknown as AgentContext
    const cache = new ImmutableDidDocumentCache()
    const resolver = new CachingPeerDidResolver(cache)
    const first = await resolver.resolve(withRecords, shortForm)
    const second = await resolver.resolve(withRecords, shortForm)
    expect(first.didDocument?.id).toBe(longForm)
    expect(second.didDocument?.toJSON()).toEqual(first.didDocument?.toJSON())
    expect(cache.size).toBe(1)
    expect(lookups).toEqual([shortForm, shortForm])
    // A short form with no record is left to Credo, which reports it not found.
    const unknown = await resolver.resolve(withRecords, `did:peer:4z${'1'.repeat(46)}`)
    expect(unknown.didDocument).toBeNull()
  })
})

describe('CachingKeyDidResolver', () => {
  it('caches did:key documents', async () => {
    const cache = new ImmutableDidDocumentCache()
    const resolver = new CachingKeyDidResolver(cache)
    const did = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH'
    const first = await resolver.resolve(agentContext, did)
    const second = await resolver.resolve(agentContext, did)
    expect(cache.size).toBe(1)
    expect(second.didDocument?.toJSON()).toEqual(first.didDocument?.toJSON())
  })
})

describe('ImmutableDidDocumentCache', () => {
  it('evicts the least recently used entry beyond its bound', () => {
    const cache = new ImmutableDidDocumentCache(2)
    const doc = (id: string) => new DidDocument({ id })
    cache.set('did:key:a', doc('did:key:a'))
    cache.set('did:key:b', doc('did:key:b'))
    expect(cache.get('did:key:a')?.id).toBe('did:key:a')
    cache.set('did:key:c', doc('did:key:c'))
    expect(cache.get('did:key:b')).toBeUndefined()
    expect(cache.get('did:key:a')?.id).toBe('did:key:a')
    expect(cache.get('did:key:c')?.id).toBe('did:key:c')
  })
})
