import { JsonTransformer, W3cCredentialRecord, W3cJsonLdVerifiableCredential } from '@credo-ts/core'

import { aCredentialShapedAsSigned } from '../../../test/fixtures/signed-credential-shape'
import { expectSameShape } from '../../../test/helpers/same-shape'
import { rememberFirstCredentials } from './first-credential-memo'

const parse = Object.getOwnPropertyDescriptor(W3cCredentialRecord.prototype, 'firstCredential')?.get as (
  this: W3cCredentialRecord,
) => W3cCredentialRecord['firstCredential']

const held = (credential: unknown) =>
  new W3cCredentialRecord({ credentialInstances: [{ credential: credential as never }], tags: {} })

describe('rememberFirstCredentials', () => {
  beforeAll(() => rememberFirstCredentials())

  it("gives the credential as Credo's getter does, a copy each time, parsed once per JSON", () => {
    const expected = parse.call(held(aCredentialShapedAsSigned()))
    const fromJson = jest.spyOn(W3cJsonLdVerifiableCredential, 'fromJson')
    try {
      // Two records, as the mirror hands out two copies of one stored credential: the same JSON, other objects.
      const first = held(aCredentialShapedAsSigned()).firstCredential
      const second = held(aCredentialShapedAsSigned()).firstCredential
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
    const record = held(aCredentialShapedAsSigned('BSc'))
    const first = record.firstCredential as W3cJsonLdVerifiableCredential
    first.issuer = 'did:example:mallory'
    expect((record.firstCredential as W3cJsonLdVerifiableCredential).issuer).toBe('did:example:issuer')
    const other = held(aCredentialShapedAsSigned('MSc')).firstCredential as W3cJsonLdVerifiableCredential
    expect(JsonTransformer.toJSON(other)).toMatchObject({ credentialSubject: { degree: { name: 'MSc' } } })
  })

  it('still refuses a credential that does not validate, every time', () => {
    const { proof: _proof, ...unsigned } = aCredentialShapedAsSigned()
    for (let attempt = 0; attempt < 2; attempt++) expect(() => held(unsigned).firstCredential).toThrow()
  })
})
