import { credentialTypeName } from '../../../../api/src/modules/bulk-issuance/bulk-credential'
import { indyAttributes, jsonLdCredential, typedValue, typeName, type CredentialTemplate } from './credential-shape'

const BADGE: CredentialTemplate = {
  kind: 'JSONLD',
  schemaName: 'employee badge',
  schemaUrl: 'https://id.example.test/schemas/5f0c',
  attributes: [
    { name: 'name', label: 'Full name', dataType: 'string', isRequired: true },
    { name: 'level', label: 'Level', dataType: 'integer', isRequired: false },
    { name: 'remote', label: 'Remote', dataType: 'boolean', isRequired: false },
  ],
}

describe('the credential an issuance form produces', () => {
  it.each([
    ['employee badge', 'EmployeeBadge'],
    ['2024 pass', 'Credential2024Pass'],
    ['***', 'Credential'],
  ])('names the type of %s %s', (schemaName, expected) => {
    expect(typeName(schemaName)).toBe(expected)
  })

  it.each(['employee badge', 'Führerschein B', 'ÉCOLE  d’été', '2024 pass', 'a-b_c.d', '***'])(
    'names the type of %p exactly as bulk issuance does (presentation requests find both by it)',
    (schemaName) => {
      expect(typeName(schemaName)).toBe(credentialTypeName(schemaName))
    },
  )

  it.each([
    ['integer', '3', 3],
    ['number', '2.5', 2.5],
    ['number', '', ''],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['array', 'a, b,,c', ['a', 'b', 'c']],
    ['datetime', '2026-11-28T09:30', new Date('2026-11-28T09:30').toISOString().replace(/\.\d{3}Z$/, 'Z')],
    ['date', '2026-11-28', '2026-11-28'],
    ['string', ' as typed ', ' as typed '],
  ])('types a %s value %p as %p', (dataType, raw, expected) => {
    expect(typedValue(dataType, raw)).toEqual(expected)
  })

  it('builds a W3C credential under the schema: inline vocabulary, schema, issuer, typed subject, optional left out', () => {
    const { credential, options } = jsonLdCredential(BADGE, 'did:key:z6Mkissuer', { name: 'Holly', level: '3' })
    expect(credential).toEqual({
      '@context': ['https://www.w3.org/2018/credentials/v1', { '@vocab': 'https://id.example.test/schemas/5f0c#' }],
      type: ['VerifiableCredential', 'EmployeeBadge'],
      issuer: 'did:key:z6Mkissuer',
      issuanceDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      credentialSchema: { id: 'https://id.example.test/schemas/5f0c', type: 'JsonSchemaValidator2018' },
      credentialSubject: { name: 'Holly', level: 3 },
    })
    expect(options).toEqual({ proofType: 'Ed25519Signature2018', proofPurpose: 'assertionMethod' })
  })

  it('gives INDY every attribute as a string, empty ones included', () => {
    expect(indyAttributes({ ...BADGE, kind: 'INDY' }, { name: 'Holly', level: '3' })).toEqual([
      { name: 'name', value: 'Holly' },
      { name: 'level', value: '3' },
      { name: 'remote', value: '' },
    ])
  })
})
