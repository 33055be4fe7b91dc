import { injectable } from 'inversify'
import { OrgsRepository } from '../orgs/orgs.repository'
import type { Webhook } from './webhook.entity'
import { WebhooksRepository } from './webhooks.repository'

/** Where an event goes: registered webhooks and the organization's `notificationWebhook`. */
export interface EventTargets {
  webhooks: Webhook[]
  notificationWebhook: string | null
}

/** The targets of events: the webhooks module's registrations and the organization's own notification URL. */
@injectable()
export class WebhookTargets {
  public constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly orgs: OrgsRepository,
  ) {}

  /** The targets of an event of `orgId` (may be null) and `tenantId` (may be undefined). */
  public async targetsOf(orgId: string | null, tenantId: string | undefined): Promise<EventTargets> {
    const webhooks = await this.webhooks.webhooksOf(orgId, tenantId)
    const notificationWebhook = orgId === null ? null : await this.orgs.notificationWebhookOf(orgId)
    return { webhooks, notificationWebhook }
  }
}
