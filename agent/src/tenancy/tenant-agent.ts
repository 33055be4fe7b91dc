import { type AgentContext, BaseAgent, type ModulesMap } from '@credo-ts/core'

/**
 * The agent API of one tenant (model: Credo's TenantAgent): the same module APIs as the base agent, resolved in
 * the tenant's context. It is only valid during a session (see TenantsService.openSession).
 */
export class TenantAgent<AgentModules extends ModulesMap> extends BaseAgent<AgentModules> {
  public constructor(agentContext: AgentContext) {
    super(agentContext.config, agentContext.dependencyManager)
  }
}
