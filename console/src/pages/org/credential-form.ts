import { api, call, type Schemas } from '../../api/client'

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

interface AttributeDefinition {
  attributeName?: string
  displayName?: string
  schemaDataType?: string
  isRequired?: boolean
}

function attributesOf(schema: Schemas['CredentialSchemaRead']): FormAttribute[] {
  const definitions = (schema.attributeDefinitions ?? []) as AttributeDefinition[]
  if (definitions.length > 0) {
    return definitions.map((definition) => ({
      name: definition.attributeName ?? '',
      label: definition.displayName || definition.attributeName || '',
      dataType: definition.schemaDataType ?? 'string',
      isRequired: definition.isRequired ?? false,
    }))
  }
  // A schema read from the ledger only (another issuer's): names, no types.
  return schema.schema.attrNames.map((name) => ({ name, label: name, dataType: 'string', isRequired: true }))
}

export async function templateForSchema(orgId: string, schemaId: string): Promise<CredentialTemplate> {
  const schema = (
    await call(() => api.GET('/v1/orgs/{orgId}/schemas/{schemaId}', { params: { path: { orgId, schemaId } } }))
  ).data
  if (!schema) throw new Error('Schema not found')
  return {
    kind: 'JSONLD',
    attributes: attributesOf(schema),
    schemaUrl: schema.schemaId,
    schemaName: schema.schema.name,
  }
}

export async function templateForCredDef(
  orgId: string,
  definition: Schemas['CredentialDefinition'],
): Promise<CredentialTemplate> {
  const schema = (
    await call(() =>
      api.GET('/v1/orgs/{orgId}/schemas/{schemaId}', {
        params: { path: { orgId, schemaId: definition.schemaLedgerId } },
      }),
    )
  ).data
  if (!schema) throw new Error('Schema not found')
  return {
    kind: 'INDY',
    attributes: attributesOf(schema),
    schemaUrl: schema.schemaId,
    schemaName: schema.schema.name,
    credentialDefinitionId: definition.credentialDefinitionId ?? undefined,
  }
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
