import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from './organization.entity'

/**
 * A DID registered for an organization. A partial unique index (migration) allows at most one primary
 * per organization; the service keeps exactly one once any DID exists.
 */
@Entity({ tableName: 'org_dids' })
@Unique({ properties: ['organization', 'did'] })
@Unique({
  name: 'org_dids_one_primary_per_org',
  expression:
    'create unique index "org_dids_one_primary_per_org" on "org_dids" ("organization_id") where "is_primary_did"',
})
export class OrgDid extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 2048 })
  did!: string

  @Property({ type: 'string', length: 50 })
  method!: string

  @Property({ type: 'boolean' })
  isPrimaryDid: Opt<boolean> = false
}
