// The credentials an issuance form produces, from a template and the values typed in: pure functions (tested in
// credential-shape.test.ts), no API calls.

/** One input of a credential form, derived from the schema's attribute definition. */
export interface FormAttribute {
  name: string
  label: string
  dataType: string
  isRequired: boolean
}

/** What an issuance form is built from: the attributes, and for JSON-LD the schema's URL and name. */
export interface CredentialTemplate {
  kind: 'JSONLD' | 'INDY'
  attributes: FormAttribute[]
  schemaUrl: string
  schemaName: string
  credentialDefinitionId?: string
}

/** A form value as the credential carries it: numbers as numbers, booleans as booleans, date-times in ISO 8601. */
export function typedValue(dataType: string, raw: string): unknown {
  if (dataType === 'number' || dataType === 'integer') return raw.trim() === '' ? raw : Number(raw)
  if (dataType === 'boolean') return raw === 'true'
  if (dataType === 'datetime' && raw) return new Date(raw).toISOString().replace(/\.\d{3}Z$/, 'Z')
  if (dataType === 'array')
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
  return raw
}

/** `employee badge` → `EmployeeBadge`: the credential type after VerifiableCredential, as bulk issuance names it. */
export function typeName(schemaName: string): string {
  const name = schemaName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
  if (name === '') return 'Credential'
  return /^\d/.test(name) ? `Credential${name}` : name
}

/**
 * The W3C credential of a JSON schema, shaped as the platform's bulk issuance shapes it (docs/decisions.md, "Bulk
 * issuance", credential of a row): an inline `@vocab` context at the schema URL (the attributes are no terms of a
 * published context), the schema as `credentialSchema`, signed with Ed25519Signature2018.
 */
export function jsonLdCredential(template: CredentialTemplate, issuerDid: string, values: Record<string, string>) {
  const subject: Record<string, unknown> = {}
  for (const attribute of template.attributes) {
    const raw = values[attribute.name] ?? ''
    if (raw === '' && !attribute.isRequired) continue
    subject[attribute.name] = typedValue(attribute.dataType, raw)
  }
  return {
    credential: {
      '@context': ['https://www.w3.org/2018/credentials/v1', { '@vocab': `${template.schemaUrl}#` }],
      type: ['VerifiableCredential', typeName(template.schemaName)],
      issuer: issuerDid,
      issuanceDate: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      credentialSchema: { id: template.schemaUrl, type: 'JsonSchemaValidator2018' },
      credentialSubject: subject,
    },
    options: { proofType: 'Ed25519Signature2018' as const, proofPurpose: 'assertionMethod' },
  }
}

/** INDY attributes: every value is a string (AnonCreds encodes them). */
export function indyAttributes(template: CredentialTemplate, values: Record<string, string>) {
  return template.attributes.map((attribute) => ({ name: attribute.name, value: values[attribute.name] ?? '' }))
}

export function inputTypeOf(dataType: string): 'number' | 'date' | 'datetime-local' | 'text' {
  if (dataType === 'number' || dataType === 'integer') return 'number'
  if (dataType === 'date') return 'date'
  if (dataType === 'datetime') return 'datetime-local'
  return 'text'
}
