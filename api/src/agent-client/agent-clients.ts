import { inject, injectable } from 'inversify'
import { InvalidStateError, Logger, NotFoundError } from '@idplane/common'
import type { Config } from '../infra/config'
import { TOKENS } from '../infra/tokens'
import { AgentClient } from './agent-client'
import { AgentClientMetrics } from './agent-client-metrics'
import { AgentEndpointLookup } from './agent-endpoint-lookup'
import type { AgentRequestOptions, AgentTarget } from './agent-request'
import { OpenId4VcAgentClient } from './openid4vc-agent-client'

/**
 * The one owner of the API's calls to organizations' agents (DESIGN.md, "Module layout"): asks the agents module
 * (AgentEndpointLookup) where an organization's agent answers, and hands out an AgentClient with the configured timeout,
 * error mapping and metrics. Every module that talks to an agent takes this, never a URL of its own.
 */
@injectable()
export class AgentClients {
  private readonly options: AgentRequestOptions

  public constructor(
    @inject(TOKENS.Config) config: Config,
    private readonly endpoints: AgentEndpointLookup,
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
    const address = await this.endpoints.addressOf(orgId)
    if (!address) throw new NotFoundError('This organization has no agent')
    if (address.endpoint === null) {
      throw new InvalidStateError(`The organization's agent is not ready (status ${address.status})`)
    }
    return this.forTarget({ orgId, endpoint: address.endpoint, apiKey: address.apiKey })
  }

  /**
   * The organization's agent, its OpenID4VC operations.
   * @throws as forOrg
   */
  public async openId4VcForOrg(orgId: string): Promise<OpenId4VcAgentClient> {
    return new OpenId4VcAgentClient(await this.forOrg(orgId))
  }

  /**
   * An agent at a known place, with the same timeout, error mapping and metrics: one whose endpoint the caller holds
   * (provisioning, before the endpoint is recorded), or one that belongs to no organization (the cloud wallets' base
   * agent; `orgId` only names it in logs).
   */
  public forTarget(target: AgentTarget): AgentClient {
    return new AgentClient(target, this.options)
  }
}
