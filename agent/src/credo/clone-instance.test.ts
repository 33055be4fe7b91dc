import { DidDocument, JsonTransformer, W3cCredentialRecord, W3cJsonLdVerifiableCredential } from '@credo-ts/core'
import { DidCommConnectionRecord, DidCommOutOfBandInvitation } from '@credo-ts/didcomm'

import { aCredentialShapedAsSigned } from '../../../test/fixtures/signed-credential-shape'
import { expectSameShape } from '../../../test/helpers/same-shape'
import { cloneInstance } from './clone-instance'

describe('cloneInstance', () => {
  it('copies plain values, Dates, bytes, Maps and Sets, and keeps shared objects and cycles', () => {
    const shared = { n: 1 }
    const original = {
      when: new Date('2026-01-01T00:00:00Z'),
      bytes: Buffer.from('abc'),
      floats: new Float64Array([1.5, 2.5]),
      map: new Map([['k', shared]]),
      set: new Set([shared]),
      list: [shared, shared],
      self: undefined as unknown,
    }
    original.self = original
    const copy = cloneInstance(original)
    expect(copy.when).toEqual(original.when)
    expect(copy.when).not.toBe(original.when)
    expect(Buffer.isBuffer(copy.bytes) && copy.bytes.toString()).toBe('abc')
    copy.bytes[0] = 0x7a
    expect(original.bytes.toString()).toBe('abc')
    expect(copy.floats).toEqual(new Float64Array([1.5, 2.5]))
    expect(copy.list[0]).toBe(copy.list[1])
    expect(copy.map.get('k')).toBe(copy.list[0])
    expect(copy.list[0]).not.toBe(shared)
    expect(copy.self).toBe(copy)
  })

  it.each([
    [
      'a connection record',
      () =>
        JsonTransformer.fromJSON(
          JsonTransformer.toJSON(
            new DidCommConnectionRecord({
              role: 'requester' as never,
              state: 'completed' as never,
              did: 'did:peer:1',
              theirLabel: 'issuer',
              threadId: 't1',
            }),
          ),
          DidCommConnectionRecord,
        ),
    ],
    [
      'a W3C credential record',
      () =>
        JsonTransformer.fromJSON(
          {
            id: 'c1',
            createdAt: '2026-01-01T00:00:00.000Z',
            credentialInstances: [{ credential: aCredentialShapedAsSigned() }],
            metadata: { note: { a: [1, 2] } },
          },
          W3cCredentialRecord,
        ),
    ],
    ['a verifiable credential', () => W3cJsonLdVerifiableCredential.fromJson(aCredentialShapedAsSigned())],
    [
      'a DID document',
      () =>
        JsonTransformer.fromJSON(
          {
            '@context': ['https://w3id.org/did/v1'],
            id: 'did:example:1',
            verificationMethod: [
              { id: '#k1', type: 'Ed25519VerificationKey2018', controller: 'did:example:1', publicKeyBase58: 'abc' },
            ],
            service: [
              {
                id: '#s1',
                type: 'did-communication',
                serviceEndpoint: 'http://x',
                recipientKeys: ['#k1'],
                priority: 0,
              },
            ],
            authentication: ['#k1'],
          },
          DidDocument,
        ),
    ],
    [
      'an out-of-band invitation',
      () =>
        DidCommOutOfBandInvitation.fromJson({
          '@type': 'https://didcomm.org/out-of-band/1.1/invitation',
          '@id': 'invitation-0001',
          label: 'issuer',
          services: ['did:peer:2.Ez6LSexample'],
          handshake_protocols: ['https://didcomm.org/didexchange/1.1'],
        }),
    ],
  ])('copies %s with the same classes at every depth', (_name, make) => {
    const original = make()
    const copy = cloneInstance(original)
    expectSameShape(copy, original)
    expect(JsonTransformer.toJSON(copy)).toEqual(JsonTransformer.toJSON(original))
  })

  it('shares nothing a caller could change', () => {
    const original = JsonTransformer.fromJSON(
      {
        id: 'c1',
        createdAt: '2026-01-01T00:00:00.000Z',
        credentialInstances: [{ credential: aCredentialShapedAsSigned() }],
      },
      W3cCredentialRecord,
    )
    const copy = cloneInstance(original)
    copy.metadata.set('changed', { yes: true })
    copy.setTag('extra' as never, 'x' as never)
    ;(copy.credentialInstances[0].credential as { issuer: string }).issuer = 'did:example:mallory'
    expect(original.metadata.get('changed')).toBeNull()
    expect(original.getTag('extra' as never)).toBeUndefined()
    expect((original.credentialInstances[0].credential as { issuer: string }).issuer).toBe('did:example:issuer')
  })
})
