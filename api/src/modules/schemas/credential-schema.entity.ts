import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

export const SCHEMA_KINDS = ['INDY', 'JSON'] as const
export type SchemaKind = (typeof SCHEMA_KINDS)[number]

/**
 * A credential schema an organization created. `JSON` schemas are published by the platform itself at
 * `<API_PUBLIC_URL>/schemas/<id>` (PublishedSchemaUrls); the URL is derived from the id, never stored, so it
 * follows the configured public address. `INDY` schemas live in the agent's AnonCreds registry (a ledger) under
 * `ledgerId`; the platform keeps their attribute definitions (data types, display names), which a ledger does not.
 * Name and version are unique per organization (spec: 409).
 */
@Entity({ tableName: 'credential_schemas' })
@Unique({ properties: ['organization', 'name', 'version'] })
@Index({ properties: ['organization', 'createdAt'] })
@Index({ properties: ['organization', 'ledgerId'] })
export class CredentialSchema extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 10 })
  type!: SchemaKind

  /** Where the schema lives: `NO_LEDGER` (published by the platform) for every JSON schema today. */
  @Property({ type: 'string', length: 30 })
  schemaType!: string

  @Property({ type: 'string', length: 256 })
  name!: string

  @Property({ type: 'string', length: 64 })
  version!: string

  @Property({ type: 'text', nullable: true })
  description?: string | null

  @Property({ type: 'string', length: 256, nullable: true })
  alias?: string | null

  /** The attribute definitions as the client sent them (after validation). */
  @Property({ type: 'json', columnType: 'jsonb' })
  attributes!: Record<string, unknown>[]

  /** JSON: the JSON Schema published for the record, without `$id` (added when served). INDY: `{}`, none published. */
  @Property({ type: 'json', columnType: 'jsonb' })
  jsonSchema!: Record<string, unknown>

  /** INDY: the schema's ledger id in the legacy form, `<did>:2:<name>:<version>` (spec: Schema record). Null for JSON. */
  @Property({ type: 'string', length: 2048, nullable: true })
  ledgerId?: string | null

  /** INDY: the same id in the did:indy form, when the schema has one (its issuer is a did:indy DID). */
  @Property({ type: 'string', length: 2048, nullable: true })
  ledgerDidIndyId?: string | null

  /** INDY: the DID the schema was published under (its `issuerId` on the ledger). Null for JSON. */
  @Property({ type: 'string', length: 2048, nullable: true })
  issuerId?: string | null

  /** The creating user; null when an organization's machine-to-machine client created it. */
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null

  /** The organization's primary DID when the schema was created, if it had one. */
  @Property({ type: 'string', length: 2048, nullable: true })
  publisherDid?: string | null
}
