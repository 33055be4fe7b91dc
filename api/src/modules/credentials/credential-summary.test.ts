import { schemaIdOf, summarizeCredential } from './credential-summary'

describe('summarizeCredential', () => {
  it('keeps types, issuer and claim names, never claim values', () => {
    const summary = summarizeCredential({
      type: ['VerifiableCredential', 'UniversityDegree'],
      issuer: { id: 'did:key:z6MkIssuer', name: 'University' },
      credentialSubject: { id: 'did:key:z6MkHolder', name: 'Alice', degree: { type: 'BachelorDegree' } },
    })
    expect(summary).toEqual({
      types: ['VerifiableCredential', 'UniversityDegree'],
      issuer: 'did:key:z6MkIssuer',
      attributeNames: ['name', 'degree'],
    })
    expect(JSON.stringify(summary)).not.toContain('Alice')
  })

  it('reads a string type, a string issuer and several subjects', () => {
    expect(
      summarizeCredential({
        type: 'VerifiableCredential',
        issuer: 'did:key:z6Mk1',
        credentialSubject: [{ a: 1 }, { b: 2 }],
      }),
    ).toEqual({ types: ['VerifiableCredential'], issuer: 'did:key:z6Mk1', attributeNames: ['a', 'b'] })
  })

  it('tolerates what a holder-side record may lack', () => {
    expect(summarizeCredential({})).toEqual({ types: [], issuer: null, attributeNames: [] })
  })
})

describe('schemaIdOf', () => {
  it.each([
    [{ credentialSchema: { id: 'https://x/schemas/1', type: 'JsonSchema' } }, 'https://x/schemas/1'],
    [{ credentialSchema: [{ type: 'JsonSchema' }, { id: 'https://x/schemas/2' }] }, 'https://x/schemas/2'],
    [{ credentialSchema: 'https://x/schemas/3' }, null],
    [{}, null],
  ])('%j names %s', (credential, expected) => {
    expect(schemaIdOf(credential)).toBe(expected)
  })
})
