import { bindSubject, needsHolderBinding, requestMatchesOffer, type CredentialDetail } from './holder-binding'

const options = { proofType: 'Ed25519Signature2018', proofPurpose: 'assertionMethod' }
const offer = (subject: Record<string, unknown>): CredentialDetail => ({
  credential: { type: ['VerifiableCredential'], issuer: 'did:key:z6MkIssuer', credentialSubject: subject },
  options,
})

describe('requestMatchesOffer', () => {
  it('accepts the offer unchanged', () => {
    expect(requestMatchesOffer(offer({ name: 'Alice' }), offer({ name: 'Alice' }))).toBe(true)
  })

  it("accepts a request that binds an id-less subject to the holder's DID", () => {
    expect(requestMatchesOffer(offer({ name: 'Alice' }), offer({ name: 'Alice', id: 'did:key:z6MkHolder' }))).toBe(true)
  })

  it.each([
    ['changes a claim', offer({ name: 'Alice' }), offer({ name: 'Mallory', id: 'did:key:z6MkHolder' })],
    [
      'replaces the offered subject id',
      offer({ id: 'did:key:z6MkA', name: 'A' }),
      offer({ id: 'did:key:z6MkB', name: 'A' }),
    ],
    ['sets an empty id', offer({ name: 'Alice' }), offer({ name: 'Alice', id: '' })],
    [
      'changes the options',
      offer({ name: 'Alice' }),
      { ...offer({ name: 'Alice' }), options: { ...options, proofType: 'x' } },
    ],
    ['adds a claim', offer({ name: 'Alice' }), offer({ name: 'Alice', id: 'did:key:z6MkHolder', admin: true })],
  ])('refuses a request that %s', (_why, offered, requested) => {
    expect(requestMatchesOffer(offered, requested)).toBe(false)
  })
})

describe('bindSubject', () => {
  it('sets the subject id, or leaves the offer alone without one', () => {
    expect(bindSubject(offer({ name: 'Alice' }), 'did:key:z6MkHolder').credential.credentialSubject).toEqual({
      name: 'Alice',
      id: 'did:key:z6MkHolder',
    })
    expect(bindSubject(offer({ name: 'Alice' }), undefined)).toEqual(offer({ name: 'Alice' }))
  })

  it('refuses to rebind a subject that names someone else', () => {
    expect(() => bindSubject(offer({ id: 'did:key:z6MkA' }), 'did:key:z6MkB')).toThrow('another id')
  })
})

describe('needsHolderBinding', () => {
  it.each([
    ['a subject without id', offer({ name: 'Alice' }), true],
    ['a subject with an id', offer({ id: 'did:key:z6MkA', name: 'A' }), false],
  ])('%s', (_name, detail, expected) => {
    expect(needsHolderBinding(detail)).toBe(expected)
  })

  it('leaves several subjects alone (only one subject can be bound)', () => {
    const many = { credential: { credentialSubject: [{ name: 'A' }, { name: 'B' }] } }
    expect(needsHolderBinding(many)).toBe(false)
  })
})
