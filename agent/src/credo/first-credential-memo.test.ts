import { JsonTransformer, W3cCredentialRecord, W3cJsonLdVerifiableCredential } from '@credo-ts/core'

import { expectSameShape } from '../../../test/helpers/same-shape'
import { rememberFirstCredentials } from './first-credential-memo'

const parse = Object.getOwnPropertyDescriptor(W3cCredentialRecord.prototype, 'firstCredential')?.get as (
  this: W3cCredentialRecord,
) => W3cCredentialRecord['firstCredential']

function aSignedCredential(degree = 'BSc'): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    type: ['VerifiableCredential'],
    issuer: 'did:example:issuer',
    issuanceDate: '2026-01-01T00:00:00Z',
    credentialSubject: { id: 'did:example:holder', degree: { name: degree } },
    proof: {
      type: 'Ed25519Signature2020',
      created: '2026-01-01T00:00:00Z',
      verificationMethod: 'did:example:issuer#k1',
      proofPurpose: 'assertionMethod',
      proofValue: 'z3abc',
    },
  }
}

const held = (credential: unknown) =>
  new W3cCredentialRecord({ credentialInstances: [{ credential: credential as never }], tags: {} })

describe('rememberFirstCredentials', () => {
  beforeAll(() => rememberFirstCredentials())

  it("gives the credential as Credo's getter does, a copy each time, parsed once per JSON", () => {
    const expected = parse.call(held(aSignedCredential()))
    const fromJson = jest.spyOn(W3cJsonLdVerifiableCredential, 'fromJson')
    try {
      // Two records, as the mirror hands out two copies of one stored credential: the same JSON, other objects.
      const first = held(aSignedCredential()).firstCredential
      const second = held(aSignedCredential()).firstCredential
      for (const copy of [first, second]) {
        expectSameShape(copy, expected)
        expect(JsonTransformer.toJSON(copy)).toEqual(JsonTransformer.toJSON(expected))
      }
      expect(second).not.toBe(first)
      expect(fromJson).toHaveBeenCalledTimes(1)
    } finally {
      fromJson.mockRestore()
    }
  })

  it('parses other JSON anew, and keeps nothing a reader changed', () => {
    const record = held(aSignedCredential('BSc'))
    const first = record.firstCredential as W3cJsonLdVerifiableCredential
    first.issuer = 'did:example:mallory'
    expect((record.firstCredential as W3cJsonLdVerifiableCredential).issuer).toBe('did:example:issuer')
    const other = held(aSignedCredential('MSc')).firstCredential as W3cJsonLdVerifiableCredential
    expect(JsonTransformer.toJSON(other)).toMatchObject({ credentialSubject: { degree: { name: 'MSc' } } })
  })

  it('still refuses a credential that does not validate, every time', () => {
    const { proof: _proof, ...unsigned } = aSignedCredential()
    for (let attempt = 0; attempt < 2; attempt++) expect(() => held(unsigned).firstCredential).toThrow()
  })
})
