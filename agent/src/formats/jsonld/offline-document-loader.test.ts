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
