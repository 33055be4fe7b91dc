import type { AgentContext } from '@credo-ts/core'

import { ContextNotAvailableOfflineError, offlineDocumentLoader } from './offline-document-loader'

// eslint-disable-next-line @typescript-eslint/no-require-imports -- jsonld.js has no types
const jsonld = require('@digitalcredentials/jsonld') as {
  canonize(document: unknown, options: object): Promise<string>
}

const KEY_DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
const didDocument = { '@context': 'https://www.w3.org/ns/did/v1', id: KEY_DID }

/** An agent context whose DID resolver answers one document, as Credo's would for a did:key. */
const agentContext = {
  dependencyManager: {
    resolve: () => ({
      resolve: async () => ({
        didResolutionMetadata: {},
        didDocument: { context: didDocument['@context'], toJSON: () => didDocument },
      }),
    }),
  },
} as unknown as AgentContext

const credential = {
  '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/security/suites/ed25519-2020/v1'],
  type: ['VerifiableCredential'],
  issuer: KEY_DID,
  issuanceDate: '2026-11-30T00:00:00Z',
  credentialSubject: { id: 'did:example:holder' },
}

describe('offlineDocumentLoader', () => {
  const load = offlineDocumentLoader(agentContext)

  it('marks bundled contexts static, from Credo and from our packages, and never a DID document', async () => {
    expect(await load('https://www.w3.org/2018/credentials/v1')).toMatchObject({ tag: 'static' })
    expect(await load('https://w3id.org/security/suites/ed25519-2020/v1')).toMatchObject({ tag: 'static' })
    const did = (await load(KEY_DID)) as { tag?: string; documentUrl: string }
    expect(did.documentUrl).toBe(KEY_DID)
    expect(did.tag).toBeUndefined()
  })

  it('refuses a context it does not bundle', async () => {
    await expect(load('https://example.org/unknown-context')).rejects.toThrow(ContextNotAvailableOfflineError)
  })

  it('lets jsonld.js keep a bundled context across operations: asked once, the same N-Quads every time', async () => {
    const asked: string[] = []
    const counting = async (url: string) => {
      asked.push(url)
      return load(url)
    }
    const options = { algorithm: 'URDNA2015', format: 'application/n-quads', safe: true, documentLoader: counting }
    const first = await jsonld.canonize(credential, options)
    const askedFirst = asked.length
    expect(askedFirst).toBeGreaterThan(0)
    for (let i = 0; i < 3; i++) expect(await jsonld.canonize(credential, options)).toBe(first)
    // Unmarked, each canonicalization asked for both contexts again.
    expect(asked).toHaveLength(askedFirst)
  })
})

describe('offlineDocumentLoader: DID documents', () => {
  /** An agent context whose resolver counts its calls and answers a minimal document for any DID. */
  function counting(): { agentContext: AgentContext; resolved: string[] } {
    const resolved: string[] = []
    const context = {
      dependencyManager: {
        resolve: () => ({
          resolve: async (_context: unknown, did: string) => {
            resolved.push(did)
            const document = { '@context': 'https://www.w3.org/ns/did/v1', id: did.split('#')[0] }
            return { didResolutionMetadata: {}, didDocument: { context: document['@context'], toJSON: () => document } }
          },
        }),
      },
    } as unknown as AgentContext
    return { agentContext: context, resolved }
  }

  it('resolves and frames a self-contained DID once, and hands out a copy each time', async () => {
    const { agentContext: context, resolved } = counting()
    const load = offlineDocumentLoader(context)
    const url =
      'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG#z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG'
    const first = await load(url)
    const second = await load(url)
    expect(resolved).toEqual([url])
    expect(second).toEqual(first)
    expect(second.document).not.toBe(first.document)
  })

  it('resolves a DID whose document can change (did:web) every time', async () => {
    const { agentContext: context, resolved } = counting()
    const load = offlineDocumentLoader(context)
    await load('did:web:example.org')
    await load('did:web:example.org')
    expect(resolved).toEqual(['did:web:example.org', 'did:web:example.org'])
  })
})
