import { ED25519_2020_CONTEXT_URL, withSuiteContext } from './suite-context'

describe('withSuiteContext', () => {
  const v1 = 'https://www.w3.org/2018/credentials/v1'
  it.each([
    { proofType: 'Ed25519Signature2018', context: [v1], expected: [v1] },
    { proofType: 'Ed25519Signature2020', context: [v1], expected: [v1, ED25519_2020_CONTEXT_URL] },
    {
      proofType: 'Ed25519Signature2020',
      context: [v1, ED25519_2020_CONTEXT_URL],
      expected: [v1, ED25519_2020_CONTEXT_URL],
    },
    { proofType: 'Ed25519Signature2020', context: v1, expected: [v1, ED25519_2020_CONTEXT_URL] },
  ])('gives $proofType the contexts it needs', ({ proofType, context, expected }) => {
    expect(withSuiteContext({ '@context': context }, proofType)['@context']).toEqual(expected)
  })
})
