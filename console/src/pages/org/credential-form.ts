import { api, call, type Schemas } from '../../api/client'
import type { CredentialTemplate, FormAttribute } from './credential-shape'

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

/**
 * The form of a credential definition's schema. `ownSchemaId` is the organization's record of that schema when it
 * created it: read by record id, it carries the attribute types and needs no ledger read through the agent.
 */
export async function templateForCredDef(
  orgId: string,
  definition: Schemas['CredentialDefinition'],
  ownSchemaId?: string,
): Promise<CredentialTemplate> {
  const schemaId = ownSchemaId ?? definition.schemaLedgerId
  const schema = (
    await call(() => api.GET('/v1/orgs/{orgId}/schemas/{schemaId}', { params: { path: { orgId, schemaId } } }))
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
