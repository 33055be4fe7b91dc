import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { agentsConfig } from './agents.config'
import { AgentsController } from './agents.controller'
import { AgentEventsController } from './agent-events.controller'
import { AgentsService } from './agents.service'
import { AgentEventsService } from './agent-events.service'
import { AgentEventsRepository } from './agent-events.repository'
import { AgentsRepository } from './agents.repository'
import { AgentSecretsService } from './agent-secrets'
import { AGENT_METRICS, AgentProvisioner } from './agent-provisioner'
import { AgentMetrics } from './agent-metrics'
import { OrgAgent } from './org-agent.entity'
import { AgentPortCounter } from './agent-port-counter.entity'
import { AgentEvent } from './agent-event.entity'
import { AgentClients } from '../../agent-client/agent-clients'
import { AgentClientMetrics } from '../../agent-client/agent-client-metrics'
import { AgentEndpointLookup } from '../../agent-client/agent-endpoint-lookup'
import { AgentEndpoints } from './agent-endpoints'
import { AgentPortsRepository } from './agent-ports.repository'

/**
 * Agent provisioning and agent events. Needs AgentRuntime and SecretBox bound by the composition root
 * (container.ts), which closes the runtime after the modules stopped.
 */
export const agentsModule: ApiModule = {
  name: 'agents',
  config: agentsConfig,
  controllers: [AgentsController, AgentEventsController],
  entities: [OrgAgent, AgentPortCounter, AgentEvent],
  // The embedded platform comes back up with its agents; unfinished provisioning resumes.
  start: (container) => container.get(AgentProvisioner).start(),
  // Stops waiting on agents before the runtime closes; always called (spin-ups schedule work too).
  stop: (container) => container.get(AgentProvisioner).close(),
  // Before the organization row goes: its agent stops and its data is removed (on Kubernetes the row says
  // whether there is an OrgAgent and a Secret to delete).
  onOrganizationDeleted: (container, orgId) => container.get(AgentsService).removeForOrganization(orgId),
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
    // The one owner of calls to agents (api/src/agent-client/), for every module that talks to one.
    bind(AgentClients).toSelf().inSingletonScope()
    // agent-client asks where an organization's agent is through its port; this module answers.
    bind(AgentEndpoints).toSelf().inSingletonScope()
    bind(AgentEndpointLookup).toService(AgentEndpoints)
    bind(AgentClientMetrics)
      .toDynamicValue((context) => new AgentClientMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
