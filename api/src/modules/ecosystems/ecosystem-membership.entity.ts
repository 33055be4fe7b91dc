import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'
import { Ecosystem } from './ecosystem.entity'

/** Spec: Roles, ecosystem roles held by an organization in one ecosystem. */
export const ECOSYSTEM_ORG_ROLES = ['ECOSYSTEM_LEAD', 'ECOSYSTEM_MEMBER'] as const
export type EcosystemOrgRole = (typeof ECOSYSTEM_ORG_ROLES)[number]

/** Spec: Ecosystem, membership status values. */
export const ECOSYSTEM_ORG_STATUSES = ['ACCEPTED', 'REJECTED', 'PENDING'] as const
export type EcosystemOrgStatus = (typeof ECOSYSTEM_ORG_STATUSES)[number]

/**
 * An organization's membership of one ecosystem (table `ecosystem_orgs`): the lead (ACCEPTED from creation) or a
 * member, whose row is the invitation while PENDING, then its answer (docs/decisions.md, "Module layout"). Removing a member deletes the row, which is the state table's
 * "removed"; it can then be invited again.
 */
@Entity({ tableName: 'ecosystem_orgs' })
@Unique({ properties: ['ecosystem', 'organization'] })
@Index({ properties: ['organization', 'status'] })
export class EcosystemMembership extends BaseEntity {
  @ManyToOne(() => Ecosystem, { deleteRule: 'cascade' })
  ecosystem!: Ecosystem

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 20 })
  role!: EcosystemOrgRole

  @Property({ type: 'string', length: 20 })
  status!: EcosystemOrgStatus

  /** The user who invited the organization; null for the lead's own row and for an M2M client. */
  @Property({ type: 'uuid', nullable: true })
  invitedBy?: string | null
}
