import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { Organization } from '../orgs/organization.entity'
import { Webhook } from './webhook.entity'
import { OrgRepository } from '../../infra/db/base.repository'

/** Where an event goes: registered webhooks and the organization's `notificationWebhook`. */
export interface EventTargets {
  webhooks: Webhook[]
  notificationWebhook: string | null
}

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

  /** The targets of an event of `orgId` (may be null) and `tenantId` (may be undefined). */
  public async targetsOf(orgId: string | null, tenantId: string | undefined): Promise<EventTargets> {
    const owners = [...(orgId === null ? [] : [{ organization: orgId }]), ...(tenantId ? [{ tenantId }] : [])]
    const webhooks = owners.length === 0 ? [] : await this.em.find(Webhook, { $or: owners })
    let notificationWebhook: string | null = null
    if (orgId !== null) {
      const rows = await this.em
        .createQueryBuilder(Organization)
        .select(['notificationWebhook'])
        .where({ id: orgId })
        .execute<{ notificationWebhook?: string | null; notification_webhook?: string | null }[]>('all')
      const row = rows[0]
      notificationWebhook = row?.notificationWebhook ?? row?.notification_webhook ?? null
    }
    return { webhooks, notificationWebhook }
  }
}
