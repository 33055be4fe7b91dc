import type { AgentContext, ParsedDid } from '@credo-ts/core'
import { DidDocument } from '@credo-ts/core'

import { didWebUrl, GuardedWebDidResolver } from './guarded-web-did-resolver'

const DID = 'did:web:issuer.example.com'
const DOCUMENT = {
  '@context': ['https://www.w3.org/ns/did/v1'],
  id: DID,
  verificationMethod: [
    {
      id: `${DID}#key-1`,
      type: 'Ed25519VerificationKey2020',
      controller: DID,
      publicKeyMultibase: 'z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH',
    },
  ],
}

function contextFetching(answer: (url: string) => Promise<Response>) {
  const urls: string[] = []
  const context = {
    config: {
      agentDependencies: {
        fetch: (url: string) => {
          urls.push(url)
          return answer(url)
        },
      },
    },
  } as unknown as AgentContext
  return { context, urls }
}

const parsed = (did: string) => ({ did, method: 'web', id: did.slice('did:web:'.length) }) as ParsedDid

describe('GuardedWebDidResolver', () => {
  it('maps a did:web to its URL as the method specification says', () => {
    expect(didWebUrl('issuer.example.com')).toBe('https://issuer.example.com/.well-known/did.json')
    expect(didWebUrl('issuer.example.com%3A8443:users:alice')).toBe(
      'https://issuer.example.com:8443/users/alice/did.json',
    )
  })

  it("resolves through the agent's fetch (the guarded one) into a Credo DidDocument", async () => {
    const { context, urls } = contextFetching(async () => Response.json(DOCUMENT))
    const result = await new GuardedWebDidResolver().resolve(context, DID, parsed(DID))
    expect(urls).toEqual(['https://issuer.example.com/.well-known/did.json'])
    expect(result.didDocument).toBeInstanceOf(DidDocument)
    expect(result.didDocument?.verificationMethod?.[0]?.id).toBe(`${DID}#key-1`)
    expect(result.didResolutionMetadata).toEqual({ contentType: 'application/did+ld+json' })
  })

  it('answers notFound with the reason when the fetch is refused or fails, and for a document of another DID', async () => {
    const refused = contextFetching(async () => {
      throw new TypeError('fetch failed: https://10.0.0.1/.well-known/did.json must not point at a private address')
    })
    const one = await new GuardedWebDidResolver().resolve(
      refused.context,
      'did:web:10.0.0.1',
      parsed('did:web:10.0.0.1'),
    )
    expect(one.didDocument).toBeNull()
    expect(one.didResolutionMetadata).toMatchObject({ error: 'notFound', message: expect.stringContaining('private') })

    const missing = contextFetching(async () => new Response('no', { status: 404 }))
    expect(
      (await new GuardedWebDidResolver().resolve(missing.context, DID, parsed(DID))).didResolutionMetadata,
    ).toMatchObject({
      error: 'notFound',
      message: expect.stringContaining('answered 404'),
    })

    const other = contextFetching(async () => Response.json({ ...DOCUMENT, id: 'did:web:elsewhere.example' }))
    const mismatch = await new GuardedWebDidResolver().resolve(other.context, DID, parsed(DID))
    expect(mismatch.didDocument).toBeNull()
    expect(mismatch.didResolutionMetadata.message).toContain('does not match')

    const garbage = contextFetching(async () => new Response('<html>', { status: 200 }))
    expect(
      (await new GuardedWebDidResolver().resolve(garbage.context, DID, parsed(DID))).didResolutionMetadata.error,
    ).toBe('notFound')
  })
})
