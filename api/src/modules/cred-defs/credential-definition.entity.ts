import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'
import type { CredDefStatus } from './credential-definition.states'

/**
 * An INDY credential definition an organization created (spec: Credential definition record). The record exists
 * from the request on; the agent generates the keys in a queued job (CredDefJobs) and the ledger id is set when it
 * is registered. One definition per schema and tag in an organization (spec: 409), under the unique index.
 */
@Entity({ tableName: 'credential_definitions' })
@Unique({ properties: ['organization', 'schemaLedgerId', 'tag'] })
@Index({ properties: ['organization', 'createdAt'] })
@Index({ properties: ['credentialDefinitionId'] })
export class CredentialDefinition extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 64 })
  tag!: string

  /** The schema's ledger id in the legacy form, `<did>:2:<name>:<version>`. */
  @Property({ type: 'string', length: 2048 })
  schemaLedgerId!: string

  /** The schema's did:indy id, when the definition's publisher is a did:indy DID (or the client gave that form). */
  @Property({ type: 'string', length: 2048, nullable: true })
  schemaDidIndyId?: string | null

  @Property({ type: 'boolean' })
  revocable!: boolean

  /** The DID the definition is published under (its issuer on the ledger). */
  @Property({ type: 'string', length: 2048 })
  publisherDid!: string

  /**
   * The ledger id in the legacy form, `<did>:3:CL:<schemaSeqNo>:<tag>` (spec: Credential definition record): set at
   * creation when the schema's sequence number is known (the platform ledger), else once registered.
   */
  @Property({ type: 'string', length: 2048, nullable: true })
  credentialDefinitionId?: string | null

  /** The same id in the did:indy form, when the publisher is a did:indy DID; the form the agent registered it under. */
  @Property({ type: 'string', length: 2048, nullable: true })
  credentialDefinitionDidIndyId?: string | null

  @Property({ type: 'string', length: 20 })
  status: Opt<CredDefStatus> = 'creating'

  /** Why the job failed (the agent's or the registry's message). */
  @Property({ type: 'text', nullable: true })
  error?: string | null

  /** Incremented by each (re)start of the job, which carries it: a job of an older execution is stale. */
  @Property({ type: 'integer' })
  execution: Opt<number> = 1

  /** The creating user; null when an organization's machine-to-machine client created it. */
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null
}
