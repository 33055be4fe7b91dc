import { inject, injectable } from 'inversify'
import { ConflictError, NotFoundError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent, type PlatformEvent } from '../../infra/platform-events'
import { RateLimiter, rateLimitKey } from '../../infra/rate-limit/rate-limiter'
import { TOKENS } from '../../infra/tokens'
import type { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity'
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository'
import { WebhookRelay } from './webhook-relay'
import { webhooksConfig, type WebhooksConfig } from './webhooks.config'
import { WebhooksRepository } from './webhooks.repository'

/** The type of the event the ping extension sends. */
export const PING_EVENT_TYPE = 'webhook.ping'
/** Rate-limit counter of pings per organization (config webhooks.pingLimit). */
export const WEBHOOK_PING_RATE_LIMIT_SCOPE = 'webhook-ping-org'

/** The delivery log of an organization, replays, and the ping event. */
@injectable()
export class WebhookDeliveriesService {
  private readonly settings: WebhooksConfig

  public constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly relay: WebhookRelay,
    private readonly modules: ModuleRegistry,
    private readonly rateLimiter: RateLimiter,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.settings = sectionOf(config, webhooksConfig)
  }

  public list(
    orgId: string,
    query: { pageNumber: number; pageSize: number; status?: DeliveryStatus },
  ): Promise<[WebhookDelivery[], number]> {
    return this.deliveries.listForOrg(orgId, query)
  }

  /**
   * Delivers a delivered or dead delivery again: same id and event, attempts from zero, due now.
   * @throws NotFoundError for a delivery that is not the organization's
   * @throws ConflictError while it is still pending (its attempts go on)
   */
  public async replay(orgId: string, deliveryId: string): Promise<WebhookDelivery> {
    // The answer is the row as the requeue left it: a relay's own poll may claim it at once, before a read could.
    const delivery = await this.deliveries.requeue(orgId, deliveryId)
    if (!delivery) {
      const existing = await this.deliveries.findForOrg(orgId, deliveryId)
      if (!existing) throw new NotFoundError('Webhook delivery not found')
      throw new ConflictError('The delivery is still pending; replay it once it is delivered or dead')
    }
    this.relay.poke()
    return delivery
  }

  /**
   * Publishes a `webhook.ping` event for the organization, as any module publishes its events: every target
   * (registered webhook, notificationWebhook) gets it through the normal delivery path.
   * @throws NotFoundError when the organization has neither target
   * @throws RateLimitedError past webhooks.pingLimit pings per organization (a ping flood only fills its own
   *   organization's slots, but costs a delivery row and an attempt each)
   */
  public async ping(orgId: string): Promise<PlatformEvent> {
    await this.rateLimiter.enforce(
      [{ key: rateLimitKey(WEBHOOK_PING_RATE_LIMIT_SCOPE, orgId), rule: this.settings.pingLimit }],
      'Too many webhook pings for this organization; try again later',
    )
    return this.webhooks.transactional(async () => {
      if (!(await this.webhooks.orgHasTarget(orgId))) {
        throw new NotFoundError('The organization has no webhook and no notificationWebhook to ping')
      }
      const event = platformEvent(PING_EVENT_TYPE, { orgId }, { orgId, message: 'Webhook test event' })
      await this.modules.publish([event])
      return event
    })
  }
}
