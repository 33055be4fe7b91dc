import { Entity, OneToOne, Property } from '@mikro-orm/decorators/legacy'
import { Organization } from '../orgs/organization.entity'

/**
 * When an organization last deleted all its connections: an event of an agent record created before then belongs
 * to a connection that was deleted (in the agent too) and is delivered late; it must not bring the record back.
 */
@Entity({ tableName: 'connection_deletions' })
export class ConnectionDeletion {
  @OneToOne(() => Organization, { primary: true, deleteRule: 'cascade' })
  organization!: Organization

  /** The start of the last delete-all: agent records created before it were deleted. */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  deletedBefore!: Date
}
