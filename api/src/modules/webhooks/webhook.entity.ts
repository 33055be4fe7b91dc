import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/**
 * A registered webhook. Its owner is an organization (`POST /webhooks/orgs/:orgId/register`) or a cloud-wallet
 * tenant (registered by the cloud-wallet module; `ownerUserId` is the user whose wallet the tenant is, the only
 * caller who may read it). One webhook per owner. The secret is sealed with SecretBox, bound to the row id.
 */
@Entity({ tableName: 'webhooks' })
export class Webhook extends BaseEntity {
  @Unique()
  @ManyToOne(() => Organization, { deleteRule: 'cascade', nullable: true })
  organization?: Organization | null

  /** The cloud-wallet tenant (agent tenant id) that owns the webhook; null for an organization's. */
  @Unique()
  @Property({ type: 'string', length: 200, nullable: true })
  tenantId?: string | null

  /** For a tenant webhook: the user the tenant belongs to. */
  @Property({ type: 'uuid', nullable: true })
  ownerUserId?: string | null

  @Property({ type: 'string', length: 2048 })
  url!: string

  /** SecretBox-sealed `webhookSecret`, with the row id as context; null when none was given. */
  @Property({ type: 'text', nullable: true })
  sealedSecret?: string | null
}
