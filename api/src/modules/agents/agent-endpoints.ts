import { injectable } from 'inversify'
import { type AgentAddress, AgentEndpointLookup } from '../../agent-client/agent-endpoint-lookup'
import { AgentSecretsService } from './agent-secrets'
import { AgentsRepository } from './agents.repository'

/** Answers agent-client's AgentEndpointLookup from the agent records: the recorded endpoint and the opened key. */
@injectable()
export class AgentEndpoints extends AgentEndpointLookup {
  public constructor(
    private readonly agents: AgentsRepository,
    private readonly secrets: AgentSecretsService,
  ) {
    super()
  }

  public async addressOf(orgId: string): Promise<AgentAddress | undefined> {
    const agent = await this.agents.addressOf(orgId)
    if (!agent) return undefined
    if (!agent.controllerEndpoint) return { status: agent.status, endpoint: null }
    return {
      status: agent.status,
      endpoint: agent.controllerEndpoint,
      apiKey: this.secrets.openApiKey(agent.encryptedApiKey, orgId),
    }
  }
}
