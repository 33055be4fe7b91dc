import type { CredentialSummary } from './credential.entity'

const MAX_LISTED = 50

function strings(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value]
  return values.filter((item): item is string => typeof item === 'string').slice(0, MAX_LISTED)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The types, issuer and claim names of a W3C credential (values are not kept: they are the holder's data). */
export function summarizeCredential(credential: Record<string, unknown>): CredentialSummary {
  const issuer = credential.issuer
  const subjects = Array.isArray(credential.credentialSubject)
    ? credential.credentialSubject
    : [credential.credentialSubject]
  const names = new Set<string>()
  for (const subject of subjects) {
    if (!isObject(subject)) continue
    for (const key of Object.keys(subject)) if (key !== 'id') names.add(key)
  }
  return {
    types: strings(credential.type),
    issuer: typeof issuer === 'string' ? issuer : isObject(issuer) && typeof issuer.id === 'string' ? issuer.id : null,
    attributeNames: [...names].slice(0, MAX_LISTED),
  }
}

/** The `credentialSchema.id` a credential names (the first, when it names several); null when none. */
export function schemaIdOf(credential: Record<string, unknown>): string | null {
  const schemas: unknown[] = Array.isArray(credential.credentialSchema)
    ? credential.credentialSchema
    : [credential.credentialSchema]
  for (const schema of schemas) {
    if (isObject(schema) && typeof schema.id === 'string' && schema.id.length <= 2000) return schema.id
  }
  return null
}
