import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { Organization } from '../orgs/organization.entity'
import { Webhook } from './webhook.entity'
import { OrgRepository } from '../../infra/db/base.repository'

/**
 * Webhook registrations. Lookups take the owner (organization or tenant) first. Inside a transaction every
 * query here joins it (the global em resolves to the transaction's fork).
 */
@injectable()
export class WebhooksRepository extends OrgRepository<Webhook> {
  public constructor(em: EntityManager) {
    super(em, Webhook)
  }

  public findForOrg(orgId: string): Promise<Webhook | null> {
    return this.em.findOne(Webhook, { organization: orgId })
  }

  public findForTenant(tenantId: string): Promise<Webhook | null> {
    return this.em.findOne(Webhook, { tenantId })
  }

  /** The wallet webhook a user registered (a tenant's, `ownerUserId`); a user has one wallet. */
  public findOwnedByUser(userId: string): Promise<Webhook | null> {
    return this.em.findOne(Webhook, { ownerUserId: userId, tenantId: { $ne: null } })
  }

  /** A new webhook row (flushed, so its id can seal the secret). */
  public async create(
    owner: { orgId?: string; tenantId?: string; ownerUserId?: string },
    url: string,
  ): Promise<Webhook> {
    const webhook = this.em.create(Webhook, {
      organization: owner.orgId === undefined ? null : this.em.getReference(Organization, owner.orgId),
      tenantId: owner.tenantId ?? null,
      ownerUserId: owner.ownerUserId ?? null,
      url,
    })
    await this.em.flush()
    return webhook
  }

  /** Whether an organization's events go anywhere: it registered a webhook or has a `notificationWebhook`. */
  public async orgHasTarget(orgId: string): Promise<boolean> {
    const [row] = await this.em.execute<{ has_target: boolean }[]>(
      `select exists (select 1 from webhooks where organization_id = ?)
         or exists (select 1 from organizations where id = ? and notification_webhook is not null) as has_target`,
      [orgId, orgId],
    )
    return row?.has_target === true
  }
}
