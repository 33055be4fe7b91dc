import { inject, injectable } from 'inversify'
import { ConflictError, IdplaneError, Logger, NotFoundError } from '@idplane/common'
import { AgentRuntime, agentSchemaName } from '../../agent-runtime/agent-runtime'
import { probeAgent } from '@idplane/common/agent-contract/probe'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { agentsConfig, type AgentsModuleConfig } from './agents.config'
import { TOKENS } from '../../infra/tokens'
import { AgentProvisioner } from './agent-provisioner'
import { AgentSecretsService } from './agent-secrets'
import { AgentsRepository, type AgentSpinUpFields } from './agents.repository'
import { OrgsRepository } from '../orgs/orgs.repository'
import type { SpinUpAgentDto } from './dto/spin-up-agent.dto'
import type { OrgAgent } from './org-agent.entity'
import { AgentPortsRepository } from './agent-ports.repository'

/** @default 2 s for the health endpoint's GET /agent. */
const HEALTH_PROBE_TIMEOUT_MS = 2_000

/** Spin-up, health and removal of organizations' agents; the work after the 201 is AgentProvisioner's. */
@injectable()
export class AgentsService {
  private readonly log: Logger

  private readonly settings: AgentsModuleConfig

  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly agents: AgentsRepository,
    private readonly orgs: OrgsRepository,
    private readonly secrets: AgentSecretsService,
    private readonly ports: AgentPortsRepository,
    private readonly runtime: AgentRuntime,
    private readonly provisioner: AgentProvisioner,
    logger: Logger,
  ) {
    this.settings = sectionOf(config, agentsConfig)
    this.log = logger.child({ component: 'agents' })
  }

  /**
   * Records the organization's agent (PENDING, generated keys, ports for the process runtime) and starts
   * provisioning in the background. A FAILED agent may be spun up again: it keeps its record and ports.
   * @throws ConflictError when the organization already has an agent that did not fail, or the process
   *   runtime runs LIMIT_PROCESS_AGENTS agents already
   * @throws NotFoundError when the organization does not exist
   */
  public async spinUp(orgId: string, input: SpinUpAgentDto): Promise<OrgAgent> {
    const existing = await this.agents.findForOrg(orgId)
    if (existing && existing.status !== 'FAILED') throw new ConflictError('This organization already has an agent')
    const fields: AgentSpinUpFields = {
      label: input.label,
      didMethod: input.method ?? 'key',
      domain: input.domain ?? null,
    }
    const agent = await this.withinQuota(async () =>
      existing ? await this.retry(existing, fields, input.seed) : await this.create(orgId, fields, input.seed),
    )
    if (existing) {
      // Outside the quota transaction: stopping the failed run's leftovers may take seconds.
      await this.provisioner.settled(orgId)
      await this.runtime.stop(orgId)
    }
    if (this.runtime.kind === 'process') {
      try {
        const ports = await this.ports.allocate(orgId, this.config.agents.portCounterStart)
        agent.adminPort = ports.adminPort
        agent.inboundPort = ports.inboundPort
      } catch (error) {
        if (!(error instanceof IdplaneError)) throw error
        await this.agents.update(orgId, { status: 'FAILED', failureReason: error.message })
        agent.status = 'FAILED'
        agent.failureReason = error.message
        return agent
      }
    }
    this.provisioner.schedule(orgId)
    return agent
  }

  /**
   * The agent's provisioning record and whether its admin API answers now.
   * @throws NotFoundError when the organization has no agent
   */
  public async health(orgId: string): Promise<{ agent: OrgAgent; isAnswering: boolean }> {
    const agent = await this.agents.findForOrg(orgId)
    if (!agent) throw new NotFoundError('This organization has no agent')
    const isAnswering = agent.controllerEndpoint
      ? (await probeAgent(agent.controllerEndpoint, HEALTH_PROBE_TIMEOUT_MS)).ok
      : false
    return { agent, isAnswering }
  }

  /**
   * Stops the organization's agent and deletes its data (the organization is being deleted): provisioning
   * stops, the process runtime stops the process and deletes its directory (or its schema on PostgreSQL), the
   * Kubernetes runtime deletes the OrgAgent and its Secret. Call it before the organization row is deleted (on
   * Kubernetes the row tells whether there is anything to delete); the process runtime works without the row.
   * @throws UpstreamError when the Kubernetes API cannot be reached
   */
  public async removeForOrganization(orgId: string): Promise<void> {
    await this.provisioner.cancel(orgId)
    this.agents.forgetRecent(orgId)
    // Kubernetes: an organization that never had an agent needs no call to the cluster (which may be down).
    // The process runtime's removal is local and also finds what an agent row that is already gone left behind.
    if (this.runtime.kind === 'kubernetes' && !(await this.agents.findFreshForOrg(orgId))) return
    await this.runtime.remove(orgId)
    if (this.runtime.kind === 'process' && this.config.database.kind === 'postgres') {
      await this.agents.dropAgentSchema(orgId, agentSchemaName(orgId))
    }
    this.log.info('Removed agent of deleted organization', { orgId, runtime: this.runtime.kind })
  }

  /** Runs the insert or retry under the process-runtime quota (LIMIT_PROCESS_AGENTS; 0: none). */
  private async withinQuota<T>(work: () => Promise<T>): Promise<T> {
    const limit = this.settings.processAgents
    if (this.runtime.kind !== 'process' || limit === 0) return work()
    return this.agents.withQuotaLock(async () => {
      if ((await this.agents.countActive('process')) >= limit) {
        throw new ConflictError(`The platform runs its limit of ${limit} agents; no agent can be started now`)
      }
      return work()
    })
  }

  private async create(orgId: string, fields: AgentSpinUpFields, seed: string | undefined): Promise<OrgAgent> {
    const organization = await this.orgs.findById(orgId)
    if (!organization) throw new NotFoundError('Organization not found')
    return this.agents.create(organization, this.runtime.kind, fields, this.secrets.generate(orgId, seed))
  }

  /**
   * A retry after FAILED: the same record, keys and ports (the caller removes the runtime's leftovers). Of two
   * concurrent retries one wins the FAILED → PENDING move; the other is a 409 like any second spin-up.
   */
  private async retry(agent: OrgAgent, fields: AgentSpinUpFields, seed: string | undefined): Promise<OrgAgent> {
    const orgId = agent.organization.id
    const { encryptedSeed } = this.secrets.generate(orgId, seed)
    if (!(await this.agents.retryFailed(orgId, fields, encryptedSeed))) {
      throw new ConflictError('This organization already has an agent')
    }
    Object.assign(agent, { ...fields, encryptedSeed, status: 'PENDING', failureReason: null, controllerEndpoint: null })
    return agent
  }
}
