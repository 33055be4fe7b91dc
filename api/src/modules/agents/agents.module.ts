import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { AgentsController } from './agents.controller'
import { AgentEventsController } from './agent-events.controller'
import { AgentsService } from './agents.service'
import { AgentEventsService } from './agent-events.service'
import { AgentEventsRepository } from './agent-events.repository'
import { AgentsRepository } from './agents.repository'
import { AgentSecretsService } from './agent-secrets'
import { AGENT_METRICS, AgentProvisioner } from './agent-provisioner'
import { AgentMetrics } from './agent-metrics'
import { AgentPortsRepository } from './agent-ports.repository'

/**
 * Agent provisioning and agent events. Needs AgentRuntime and SecretBox bound by the composition root
 * (container.ts), which also starts AgentProvisioner and closes it before the runtime.
 */
export const agentsModule: ApiModule = {
  name: 'agents',
  controllers: [AgentsController, AgentEventsController],
  bindings: new ContainerModule(({ bind }) => {
    bind(AgentsController).toSelf().inSingletonScope()
    bind(AgentEventsController).toSelf().inSingletonScope()
    bind(AgentsService).toSelf().inSingletonScope()
    bind(AgentEventsService).toSelf().inSingletonScope()
    bind(AgentsRepository).toSelf().inSingletonScope()
    bind(AgentEventsRepository).toSelf().inSingletonScope()
    bind(AgentSecretsService).toSelf().inSingletonScope()
    bind(AgentProvisioner).toSelf().inSingletonScope()
    bind(AgentPortsRepository).toSelf().inSingletonScope()
    bind(AGENT_METRICS)
      .toDynamicValue((context) => {
        const agents = context.get(AgentsRepository)
        return new AgentMetrics(context.get<Registry<RegistryContentType>>(Registry), () => agents.countByStatus())
      })
      .inSingletonScope()
  }),
}
