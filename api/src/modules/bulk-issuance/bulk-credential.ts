/** The credential's type after `VerifiableCredential`: the schema's name in PascalCase (`employee badge` → `EmployeeBadge`). */
export function credentialTypeName(schemaName: string): string {
  const words = schemaName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word.length > 0)
  const name = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')
  if (name.length === 0) return 'Credential'
  return /^\d/.test(name) ? `Credential${name}` : name
}

export interface BulkCredentialInput {
  /** The schema's public URL (PublishedSchemaUrls). */
  schemaUrl: string
  schemaName: string
  issuerDid: string
  attributes: Record<string, unknown>
  issuanceDate?: Date
}

/**
 * The W3C credential of one row. Schema attributes are not terms of any published JSON-LD context, so the
 * credential carries an inline context whose `@vocab` is the schema's URL: every attribute (and the type) expands
 * to `<schema URL>#<name>`, which lets the agent sign it without fetching anything (docs/decisions.md, Bulk issuance).
 * The holder binds `credentialSubject.id` when it requests the credential.
 */
export function bulkCredential(input: BulkCredentialInput): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1', { '@vocab': `${input.schemaUrl}#` }],
    type: ['VerifiableCredential', credentialTypeName(input.schemaName)],
    issuer: input.issuerDid,
    issuanceDate: (input.issuanceDate ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    credentialSchema: { id: input.schemaUrl, type: 'JsonSchemaValidator2018' },
    credentialSubject: { ...input.attributes },
  }
}

/** Signing options of every bulk offer: Ed25519 keys are what organization DIDs hold. */
export const BULK_SIGNING_OPTIONS = { proofType: 'Ed25519Signature2018', proofPurpose: 'assertionMethod' } as const
