import { InvalidInputError, NotFoundError } from '@idplane/common'
import { checkIndyAttributes, checkIssuanceRequest, credentialTypeOf } from './issuance-input'

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

  it('names what an INDY request lacks, and accepts a complete one', () => {
    expect(fieldsOf(() => checkIssuanceRequest('INDY', {}, [{ content: {}, prefix: '' }]))).toEqual([
      'credentialDefinitionId',
      'attributes',
    ])
    expect(() =>
      checkIssuanceRequest('INDY', { credentialDefinitionId: 'cd' }, [
        { content: { attributes: [{ name: 'a', value: 'b' }] }, prefix: '' },
      ]),
    ).not.toThrow()
  })

  it('refuses an empty value marked isRequired, and a name given twice; an optional one may be empty', () => {
    const attributes = [
      { name: 'name', value: ' ', isRequired: true },
      { name: 'age', value: '', isRequired: false },
      { name: 'age', value: '3' },
    ]
    expect(
      fieldsOf(() =>
        checkIssuanceRequest('INDY', { credentialDefinitionId: 'cd' }, [
          { content: { attributes }, prefix: 'credentialData[0].' },
        ]),
      ),
    ).toEqual(['credentialData[0].attributes[0].value', 'credentialData[0].attributes[2].name'])
  })

  it('issues v1 only with an Indy credential definition id, in either form', () => {
    const legacy = 'Th7MpTaRZVRYnPiabds81Y:3:CL:12:default'
    const content = [{ content: { attributes: [{ name: 'a', value: 'b' }] }, prefix: '' }]
    for (const id of [legacy, 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/CLAIM_DEF/12/default']) {
      expect(() =>
        checkIssuanceRequest('INDY', { credentialDefinitionId: id, protocolVersion: 'v1' }, content),
      ).not.toThrow()
    }
    expect(
      fieldsOf(() =>
        checkIssuanceRequest(
          'INDY',
          { credentialDefinitionId: 'did:key:z6Mk/anoncreds/v0/CLAIM_DEF/1/default', protocolVersion: 'v1' },
          content,
        ),
      ),
    ).toEqual(['protocolVersion'])
    expect(
      fieldsOf(() =>
        checkIssuanceRequest('INDY', { credentialDefinitionId: 'did:key:z6Mk', protocolVersion: 'v1' }, content),
      ),
    ).toEqual(['protocolVersion'])
  })
})

describe('checkIndyAttributes', () => {
  it('names each schema attribute missing and each unknown one', () => {
    const error = (() => {
      try {
        checkIndyAttributes(
          ['name', 'age'],
          [
            {
              content: {
                attributes: [
                  { name: 'name', value: 'A' },
                  { name: 'age', value: '3' },
                ],
              },
              prefix: 'x[0].',
            },
            {
              content: {
                attributes: [
                  { name: 'name', value: 'A' },
                  { name: 'agee', value: '3' },
                ],
              },
              prefix: 'x[1].',
            },
          ],
        )
      } catch (caught) {
        return caught as InvalidInputError
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error?.fields).toEqual([
      { field: 'x[1].attributes', message: expect.stringContaining('"age"') },
      { field: 'x[1].attributes[1].name', message: expect.stringContaining('"agee"') },
    ])
  })
})
