import { InvalidInputError, NotFoundError, NotImplementedError } from '@idplane/common'
import { checkIssuanceRequest, credentialTypeOf } from './issuance-input'

const credential = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiableCredential'],
  issuer: 'did:key:z6Mk',
  issuanceDate: '2026-01-01T00:00:00Z',
  credentialSubject: { name: 'Alice' },
}
const options = { proofType: 'Ed25519Signature2018', proofPurpose: 'assertionMethod' }

function fieldsOf(work: () => void): string[] {
  try {
    work()
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields.map((field) => field.field)
    throw error
  }
  return []
}

describe('credentialTypeOf', () => {
  it('defaults to INDY and knows JSONLD', () => {
    expect(credentialTypeOf(undefined)).toBe('INDY')
    expect(credentialTypeOf('JSONLD')).toBe('JSONLD')
  })
  it.each(['jsonld', 'W3C', 'x'])('answers 404 for %s', (value) => {
    expect(() => credentialTypeOf(value)).toThrow(NotFoundError)
  })
})

describe('checkIssuanceRequest', () => {
  it('accepts a complete JSON-LD request', () => {
    expect(() => checkIssuanceRequest('JSONLD', {}, [{ content: { credential, options }, prefix: '' }])).not.toThrow()
  })

  it('names each missing JSON-LD field with its entry', () => {
    expect(
      fieldsOf(() =>
        checkIssuanceRequest('JSONLD', {}, [
          { content: { credential, options }, prefix: 'credentialData[0].' },
          { content: { credential: { type: ['VerifiableCredential'] } }, prefix: 'credentialData[1].' },
        ]),
      ),
    ).toEqual([
      'credentialData[1].options',
      'credentialData[1].credential.@context',
      'credentialData[1].credential.issuer',
      'credentialData[1].credential.issuanceDate',
      'credentialData[1].credential.credentialSubject',
    ])
  })

  it('refuses protocol v1 for JSON-LD', () => {
    expect(fieldsOf(() => checkIssuanceRequest('JSONLD', { protocolVersion: 'v1' }, []))).toEqual(['protocolVersion'])
  })

  it('gives INDY its 400s before the 501', () => {
    expect(fieldsOf(() => checkIssuanceRequest('INDY', {}, [{ content: {}, prefix: '' }]))).toEqual([
      'credentialDefinitionId',
      'attributes',
    ])
    expect(() =>
      checkIssuanceRequest('INDY', { credentialDefinitionId: 'cd' }, [
        { content: { attributes: [{ name: 'a', value: 'b' }] }, prefix: '' },
      ]),
    ).toThrow(NotImplementedError)
  })
})
