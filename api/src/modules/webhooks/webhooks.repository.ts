import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { Organization } from '../orgs/organization.entity'
import { Webhook } from './webhook.entity'
import { OrgRepository } from '../../infra/db/base.repository'

/** Where an event goes: registered webhooks and the organization's `notificationWebhook`. */
export interface EventTargets {
  webhooks: Array<Pick<Webhook, 'id' | 'url'>>
  notificationWebhook: string | null
}

/**
 * Webhook registrations. Lookups take the owner (organization or tenant) first. Inside a transaction every
 * query here joins it (the global em resolves to the transaction's fork).
 */
@injectable()
export class WebhooksRepository extends OrgRepository<Webhook> {
  /** Targets looked up in a transaction, by owner: a batch of agent events is applied in one, mostly one owner's. */
  private readonly targetsInTransaction = new WeakMap<object, Map<string, EventTargets>>()

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

  /**
   * Where an event of `orgId` (may be null) and `tenantId` (may be undefined) goes: the webhooks registered by
   * either, oldest first, and the organization's `notificationWebhook`. One statement per owner and transaction: it
   * runs for the events the agents send, in the transaction that stores them (up to 20 of one agent in one).
   */
  public async targetsOf(orgId: string | null, tenantId: string | undefined): Promise<EventTargets> {
    if (orgId === null && tenantId === undefined) return { webhooks: [], notificationWebhook: null }
    const transaction = this.em.getTransactionContext<object>()
    const owner = `${orgId ?? ''}/${tenantId ?? ''}`
    const known = transaction && this.targetsInTransaction.get(transaction)?.get(owner)
    if (known) return known
    const rows = await this.em.execute<
      { id: string | null; url: string | null; notification_webhook: string | null }[]
    >(
      `select w.id, w.url, o.notification_webhook
         from (select 1) as one
         left join organizations o on o.id = ?
         left join webhooks w on w.organization_id = ? or w.tenant_id = ?
         order by w.created_at, w.id`,
      [orgId, orgId, tenantId ?? null],
    )
    const webhooks: EventTargets['webhooks'] = []
    for (const row of rows) if (row.id !== null && row.url !== null) webhooks.push({ id: row.id, url: row.url })
    const targets = { webhooks, notificationWebhook: rows[0]?.notification_webhook ?? null }
    if (transaction) {
      const byOwner = this.targetsInTransaction.get(transaction) ?? new Map<string, EventTargets>()
      byOwner.set(owner, targets)
      this.targetsInTransaction.set(transaction, byOwner)
    }
    return targets
  }
}
