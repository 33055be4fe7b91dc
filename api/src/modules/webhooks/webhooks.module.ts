import { ContainerModule } from 'inversify'
import { Registry } from 'prom-client'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { AGENT_EVENT_KINDS } from '@idplane/common/agent-contract/events'
import type { ApiModule } from '../../infra/api-module'
import { AgentEventLagProbe } from './agent-event-lag.handler'
import { Webhook } from './webhook.entity'
import { WebhookDelivery } from './webhook-delivery.entity'
import { WebhookDeliveriesController } from './webhook-deliveries.controller'
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository'
import { WebhookDeliveriesService } from './webhook-deliveries.service'
import { WebhookEventListener } from './webhook-event-listener'
import { WebhookMetrics } from './webhook-metrics'
import { WebhookRelay } from './webhook-relay'
import { webhooksConfig } from './webhooks.config'
import { WebhooksController } from './webhooks.controller'
import { WebhooksRepository } from './webhooks.repository'
import { WebhooksService } from './webhooks.service'

/**
 * Webhooks (spec: Webhooks, Events): registration, and delivery of every platform event to the organization's
 * (or tenant's) webhook and `notificationWebhook` through the shared outbox relay, fair across owners. Also
 * measures agent-event lag.
 */
export const webhooksModule: ApiModule = {
  name: 'webhooks',
  controllers: [WebhooksController, WebhookDeliveriesController],
  // Served unversioned before issue 22 item 4; clients written then keep working and are told to move.
  deprecatedAliases: [{ prefix: '/webhooks/orgs/', successor: '/v1/webhooks/orgs/' }],
  entities: [Webhook, WebhookDelivery],
  config: webhooksConfig,
  platformEventListeners: [WebhookEventListener],
  agentEventHandlers: AGENT_EVENT_KINDS.map((kind) => ({ kind, handler: AgentEventLagProbe })),
  start: (container) => container.get(WebhookRelay).start(),
  stop: (container) => container.get(WebhookRelay).stop(),
  retention: (container) => {
    const { deliveryRetentionSeconds } = sectionOf(container.get<Config>(TOKENS.Config), webhooksConfig)
    const deliveries = container.get(WebhookDeliveriesRepository)
    return [
      {
        table: 'webhook_deliveries',
        pruneBatch: (limit) => deliveries.pruneFinished(deliveryRetentionSeconds, limit),
      },
    ]
  },
  bindings: new ContainerModule(({ bind }) => {
    bind(WebhooksController).toSelf().inSingletonScope()
    bind(WebhookDeliveriesController).toSelf().inSingletonScope()
    bind(WebhooksService).toSelf().inSingletonScope()
    bind(WebhookDeliveriesService).toSelf().inSingletonScope()
    bind(WebhooksRepository).toSelf().inSingletonScope()
    bind(WebhookDeliveriesRepository).toSelf().inSingletonScope()
    bind(WebhookEventListener).toSelf().inSingletonScope()
    bind(WebhookRelay).toSelf().inSingletonScope()
    bind(AgentEventLagProbe).toSelf().inSingletonScope()
    bind(WebhookMetrics)
      .toDynamicValue((context) => new WebhookMetrics(context.get<Registry>(Registry)))
      .inSingletonScope()
  }),
}
