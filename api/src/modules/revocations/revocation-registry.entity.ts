import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { CredentialDefinition } from '../cred-defs/credential-definition.entity'
import { Organization } from '../orgs/organization.entity'

/** `active`: issues the next free index; `full`: every index given out (a newer registry takes over). */
export const REVOCATION_REGISTRY_STATES = ['active', 'full'] as const
export type RevocationRegistryState = (typeof REVOCATION_REGISTRY_STATES)[number]

/**
 * An AnonCreds revocation registry of a revocable credential definition (issue 25), made by the organization's
 * agent and registered on the ledger. Indices are handed out here, never by the agent: `nextIndex` moves forward in
 * the same statement that gives one out (RevocationRegistriesRepository.allocateIndex), so concurrent offers never
 * share one and an index given to an offer that then failed is never given again. A registry of `size` holds the
 * indices 1 to size-1 (anoncreds-rs' numbering: bit 0 of its status list is no credential).
 */
@Entity({ tableName: 'revocation_registries' })
@Unique({ properties: ['revocationRegistryDefinitionId'] })
@Index({ properties: ['credentialDefinition', 'state', 'createdAt'] })
export class RevocationRegistry extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @ManyToOne(() => CredentialDefinition, { deleteRule: 'cascade' })
  credentialDefinition!: CredentialDefinition

  /** The registry's ledger id, in the form its credential definition has. */
  @Property({ type: 'string', length: 2048 })
  revocationRegistryDefinitionId!: string

  /** maxCredNum of the registry definition. */
  @Property({ type: 'integer' })
  size!: number

  /** The index the next credential gets. */
  @Property({ type: 'integer' })
  nextIndex: Opt<number> = 1

  @Property({ type: 'string', length: 16 })
  state: Opt<RevocationRegistryState> = 'active'

  /**
   * When a process took on making the registry that follows this one (it is nearly full): the claim that makes one
   * successor, not one per concurrent offer. Released when that fails; a claim older than the registry timeout is
   * stale (its process died) and may be taken again.
   */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  successorClaimedAt?: Date | null
}
