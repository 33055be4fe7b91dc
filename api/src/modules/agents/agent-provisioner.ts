import { inject, injectable } from 'inversify'
import { LockMode, RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { IdplaneError, Logger } from '@idplane/common'
import { AgentRuntime, type AgentRuntimeStatus } from '../../agent-runtime/agent-runtime'
import { OrgDidsService } from '../orgs/org-dids.service'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentMetrics } from './agent-metrics'
import { AgentSecretsService } from './agent-secrets'
import { AgentsRepository } from './agents.repository'
import { OrgAgent } from './org-agent.entity'
import { isInProgress, type AgentStatus } from './org-agent.states'

export const AGENT_METRICS = Symbol.for('idplane.AgentMetrics')

/** Longest failure reason kept (a reason names the cause, never a dump). */
const MAX_REASON_LENGTH = 1000

/**
 * Runs provisioning in the background, after the spin-up answered 201 (spec: "Per-organization agent
 * provisioning"): runtime start and GET /agent polling (PENDING → WALLET_CREATED), then the first DID through
 * the agent, recorded as primary (→ DID_CREATED); any failure → FAILED with a reason. On API start it resumes
 * unfinished provisioning and, for the process runtime, starts the agents that were running.
 */
@injectable()
export class AgentProvisioner {
  private readonly tasks = new Map<string, Promise<void>>()
  private readonly stopping = new AbortController()
  private readonly log: Logger

  public constructor(
    private readonly em: EntityManager,
    private readonly runtime: AgentRuntime,
    private readonly agents: AgentsRepository,
    private readonly secrets: AgentSecretsService,
    private readonly dids: OrgDidsService,
    private readonly agentClients: AgentClients,
    @inject(AGENT_METRICS) private readonly metrics: AgentMetrics,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'agent-provisioning' })
  }

  /** Resumes agents in PENDING / WALLET_CREATED; the process runtime also restarts DID_CREATED agents. */
  public start(): void {
    const statuses: AgentStatus[] =
      this.runtime.kind === 'process' ? ['PENDING', 'WALLET_CREATED', 'DID_CREATED'] : ['PENDING', 'WALLET_CREATED']
    this.agents
      .findByRuntime(this.runtime.kind, statuses)
      .then((agents) => {
        if (agents.length > 0) this.log.info('Resuming agents', { count: agents.length })
        for (const agent of agents) this.schedule(agent.id)
      })
      .catch((error: unknown) => this.log.error('Could not resume agents', { error: (error as Error).message }))
  }

  /** Starts provisioning of one agent unless it is already under way in this process. */
  public schedule(orgAgentId: string): void {
    if (this.tasks.has(orgAgentId) || this.stopping.signal.aborted) return
    const task = RequestContext.create(this.em, () => this.run(orgAgentId))
      .catch((error: unknown) =>
        this.log.error('Provisioning crashed', { orgAgentId, error: (error as Error).message }),
      )
      .finally(() => this.tasks.delete(orgAgentId))
    this.tasks.set(orgAgentId, task)
  }

  /** Resolves when the agent's provisioning in this process (if any) has finished. */
  public async settled(orgAgentId: string): Promise<void> {
    await this.tasks.get(orgAgentId)
  }

  /** Stops waiting on agents (their state stays as it is and is resumed at the next start). */
  public async close(): Promise<void> {
    this.stopping.abort()
    await Promise.all(this.tasks.values())
  }

  private async run(orgAgentId: string): Promise<void> {
    const agent = await this.agents.findById(orgAgentId)
    if (!agent) return
    const orgId = agent.organization.id
    const log = this.log.child({ orgId, orgAgentId })
    const startedAt = process.hrtime.bigint()
    const observe = (result: 'success' | 'failure') =>
      this.metrics.provisioningDuration.observe(
        { runtime: this.runtime.kind, result },
        Number(process.hrtime.bigint() - startedAt) / 1e9,
      )
    try {
      const ports =
        agent.adminPort && agent.inboundPort
          ? { adminPort: agent.adminPort, inboundPort: agent.inboundPort }
          : undefined
      const result = await this.runtime.provision(
        { orgId, label: agent.label, ports, secrets: () => this.secrets.issue(orgAgentId) },
        { signal: this.stopping.signal, onStatus: (status) => this.mirror(orgAgentId, status) },
      )
      if (this.stopping.signal.aborted || result.phase === 'pending') return
      if (result.phase !== 'ready') {
        await this.fail(orgAgentId, result.phase === 'failed' ? result.reason : 'The agent is gone', log)
        observe('failure')
        return
      }
      const wasInProgress = isInProgress(agent.status)
      await this.agents.update(orgAgentId, {
        controllerEndpoint: result.controllerEndpoint,
        ...(result.ports ?? {}),
        ...(agent.status === 'PENDING' ? { status: 'WALLET_CREATED' } : {}),
      })
      log.info('Agent ready', { controllerEndpoint: result.controllerEndpoint })
      await this.createFirstDid(orgAgentId, result.controllerEndpoint, log)
      if (wasInProgress) observe('success')
    } catch (error) {
      if (this.stopping.signal.aborted) return
      await this.fail(orgAgentId, reasonOf(error), log).catch(() => undefined)
      observe('failure')
    }
  }

  /**
   * Creates the organization's first DID through the agent and records it as primary, holding the agent
   * row so that two API replicas resuming the same agent create one DID between them.
   */
  private async createFirstDid(orgAgentId: string, controllerEndpoint: string, log: Logger): Promise<void> {
    await this.em.transactional(async (em) => {
      const agent = await em.findOne(OrgAgent, { id: orgAgentId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      if (!agent || agent.status !== 'WALLET_CREATED') return
      const orgId = agent.organization.id
      // A retried agent whose DID was recorded before it failed keeps that DID.
      const hasPrimary = (await this.dids.list(orgId)).some((record) => record.isPrimaryDid)
      if (!hasPrimary) {
        const { did } = await this.agentClients.forAgent(agent, controllerEndpoint).createDid({
          method: agent.didMethod,
          ...(agent.domain ? { domain: agent.domain } : {}),
          ...(agent.encryptedSeed ? { seed: this.secrets.seedOf(agent) } : {}),
        })
        await this.dids.register(orgId, did, agent.didMethod, { primary: true })
        log.info('Created DID', { did, method: agent.didMethod })
      }
      agent.status = 'DID_CREATED'
    })
  }

  /** Mirrors what the runtime reports while waiting (the Kubernetes runtime learns the ports from the operator). */
  private async mirror(orgAgentId: string, status: AgentRuntimeStatus): Promise<void> {
    if (status.phase === 'pending' && status.ports) await this.agents.update(orgAgentId, { ...status.ports })
  }

  private async fail(orgAgentId: string, reason: string, log: Logger): Promise<void> {
    await this.agents.update(orgAgentId, {
      status: 'FAILED',
      failureReason: reason.slice(0, MAX_REASON_LENGTH),
      controllerEndpoint: null,
    })
    log.warn('Agent provisioning failed', { reason })
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof IdplaneError) return error.message
  return `Provisioning failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`
}
