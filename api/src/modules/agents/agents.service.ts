import { inject, injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { ConflictError, IdplaneError, NotFoundError } from '@idplane/common'
import { AgentRuntime } from '../../agent-runtime/agent-runtime'
import { probeAgent } from '@idplane/common/agent-contract/probe'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { Organization } from '../orgs/organization.entity'
import { AgentProvisioner } from './agent-provisioner'
import { AgentSecretsService } from './agent-secrets'
import { AgentsRepository } from './agents.repository'
import type { SpinUpAgentDto } from './dto/spin-up-agent.dto'
import { OrgAgent } from './org-agent.entity'
import { PortAllocator } from './port-allocator'

/** @default 2 s for the health endpoint's GET /agent. */
const HEALTH_PROBE_TIMEOUT_MS = 2_000

/** Spin-up and health of organizations' agents; the work after the 201 is AgentProvisioner's. */
@injectable()
export class AgentsService {
  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly em: EntityManager,
    private readonly agents: AgentsRepository,
    private readonly secrets: AgentSecretsService,
    private readonly ports: PortAllocator,
    private readonly runtime: AgentRuntime,
    private readonly provisioner: AgentProvisioner,
  ) {}

  /**
   * Records the organization's agent (PENDING, generated keys, ports for the process runtime) and starts
   * provisioning in the background. A FAILED agent may be spun up again: it keeps its record and ports.
   * @throws ConflictError when the organization already has an agent that did not fail
   * @throws NotFoundError when the organization does not exist
   */
  public async spinUp(orgId: string, input: SpinUpAgentDto): Promise<OrgAgent> {
    const existing = await this.agents.findForOrg(orgId)
    if (existing && existing.status !== 'FAILED') throw new ConflictError('This organization already has an agent')
    const agent = existing ? await this.reset(existing, input) : await this.create(orgId, input)
    if (this.runtime.kind === 'process') {
      try {
        const ports = await this.ports.allocate(agent.id, this.config.agents.portCounterStart)
        agent.adminPort = ports.adminPort
        agent.inboundPort = ports.inboundPort
      } catch (error) {
        if (!(error instanceof IdplaneError)) throw error
        agent.status = 'FAILED'
        agent.failureReason = error.message
        await this.em.flush()
        return agent
      }
    }
    this.provisioner.schedule(agent.id)
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

  private async create(orgId: string, input: SpinUpAgentDto): Promise<OrgAgent> {
    const organization = await this.em.findOne(Organization, { id: orgId })
    if (!organization) throw new NotFoundError('Organization not found')
    // A concurrent second spin-up fails on the unique organization_id (409 from the error handler).
    const agent = this.em.create(OrgAgent, {
      organization,
      label: input.label,
      runtime: this.runtime.kind,
      didMethod: input.method ?? 'key',
      domain: input.domain ?? null,
      ...this.secrets.generate(orgId, input.seed),
    })
    await this.em.flush()
    return agent
  }

  /** A retry after FAILED: the same record, keys and ports; the runtime's leftovers are removed first. */
  private async reset(agent: OrgAgent, input: SpinUpAgentDto): Promise<OrgAgent> {
    await this.provisioner.settled(agent.id)
    await this.runtime.stop(agent.organization.id)
    const seed = this.secrets.generate(agent.organization.id, input.seed).encryptedSeed
    this.em.assign(agent, {
      status: 'PENDING',
      failureReason: null,
      controllerEndpoint: null,
      label: input.label,
      didMethod: input.method ?? 'key',
      domain: input.domain ?? null,
      encryptedSeed: seed,
    })
    await this.em.flush()
    return agent
  }
}
