import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

export const INVITATION_STATUSES = ['pending', 'accepted', 'rejected'] as const
export type InvitationStatus = (typeof INVITATION_STATUSES)[number]

/**
 * An invitation to join an organization. Deleting the row is the spec's "removed" state: the mailed link
 * (which carries the id) then no longer resolves.
 */
@Entity({ tableName: 'org_invitations' })
@Index({ properties: ['email'] })
export class Invitation extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 320 })
  email!: string

  @Property({ type: 'string', length: 20 })
  status: Opt<InvitationStatus> = 'pending'

  /** Role definition ids (org_roles.id) granted on acceptance. */
  @Property({ type: 'json', columnType: 'jsonb' })
  orgRoleIds!: string[]

  @Property({ type: 'uuid', nullable: true })
  invitedBy?: string | null
}
