import { inject, injectable } from 'inversify'
import { InvalidStateError, Logger, NotFoundError } from '@idplane/common'
import type { Config } from '../infra/config'
import { TOKENS } from '../infra/tokens'
import { AgentSecretsService } from '../modules/agents/agent-secrets'
import { AgentsRepository } from '../modules/agents/agents.repository'
import type { OrgAgent } from '../modules/agents/org-agent.entity'
import { AgentClient } from './agent-client'
import { AgentClientMetrics } from './agent-client-metrics'
import type { AgentRequestOptions, AgentTarget } from './agent-request'

/**
 * The one owner of the API's calls to organizations' agents (DESIGN.md, "Module layout"): looks up an
 * organization's agent endpoint and opens its API key, and hands out an AgentClient with the configured timeout,
 * error mapping and metrics. Every module that talks to an agent takes this, never a URL of its own.
 */
@injectable()
export class AgentClients {
  private readonly options: AgentRequestOptions

  public constructor(
    @inject(TOKENS.Config) config: Config,
    private readonly agents: AgentsRepository,
    private readonly secrets: AgentSecretsService,
    metrics: AgentClientMetrics,
    logger: Logger,
  ) {
    this.options = {
      timeoutMs: config.agents.requestTimeoutMs,
      metrics,
      logger: logger.child({ component: 'agent-client' }),
    }
  }

  /**
   * The organization's agent.
   * @throws NotFoundError when the organization has no agent
   * @throws InvalidStateError (409) when its agent has not answered yet (no recorded endpoint: provisioning, failed)
   */
  public async forOrg(orgId: string): Promise<AgentClient> {
    const agent = await this.agents.findForOrg(orgId)
    if (!agent) throw new NotFoundError('This organization has no agent')
    return this.forAgent(agent)
  }

  /**
   * A client for an agent record already at hand (provisioning holds it), at its recorded endpoint or the one the
   * runtime just reported.
   * @throws InvalidStateError when there is no endpoint
   */
  public forAgent(agent: OrgAgent, endpoint: string | null | undefined = agent.controllerEndpoint): AgentClient {
    if (!endpoint) {
      throw new InvalidStateError(`The organization's agent is not ready (status ${agent.status})`)
    }
    return new AgentClient(
      { orgId: agent.organization.id, endpoint, apiKey: this.secrets.apiKeyOf(agent) },
      this.options,
    )
  }

  /**
   * An agent that belongs to no organization (the cloud wallets' base agent), with the same timeout, error
   * mapping and metrics; `orgId` only names it in logs.
   */
  public forTarget(target: AgentTarget): AgentClient {
    return new AgentClient(target, this.options)
  }
}
