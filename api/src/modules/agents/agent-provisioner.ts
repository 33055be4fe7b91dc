import { randomUUID } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { IdplaneError, Logger } from '@idplane/common'
import {
  AgentRuntime,
  BASE_WALLET_AGENT_ID,
  type AgentExit,
  type AgentRuntimeStatus,
} from '../../agent-runtime/agent-runtime'
import { OrgDidsService } from '../orgs/org-dids.service'
import { AgentClients } from '../../agent-client/agent-clients'
import type { AgentMetrics } from './agent-metrics'
import { AgentSecretsService } from './agent-secrets'
import { AgentsRepository } from './agents.repository'
import type { OrgAgent } from './org-agent.entity'
import { isInProgress, type AgentStatus } from './org-agent.states'

export const AGENT_METRICS = Symbol.for('idplane.AgentMetrics')

/** Longest failure reason kept (a reason names the cause, never a dump). */
const MAX_REASON_LENGTH = 1000
/**
 * @default 60 s claim on the first-DID step: longer than the agent's 30 s DID timeout, so a live claim is
 * never taken over; a claim of a crashed API expires and the step is resumed.
 */
const DID_CLAIM_LEASE_MS = 60_000

interface Task {
  done: Promise<void>
  abort: AbortController
}

/** @default 15 s between looks for agents that another API replica spun up (process runtime). */
const AGENT_DISCOVERY_INTERVAL_MS = 15_000

/**
 * Runs provisioning in the background, after the spin-up answered 201 (spec: "Per-organization agent
 * provisioning"): runtime start and GET /agent polling (PENDING → WALLET_CREATED), then the first DID through
 * the agent, recorded as primary (→ DID_CREATED); any failure → FAILED with a reason. On API start it resumes
 * unfinished provisioning and, for the process runtime, starts the agents that were running. No transaction
 * or row lock is held while an agent is called: a step that calls one is claimed first (a short update with a
 * lease) and its result recorded afterwards only while the claim holds.
 */
@injectable()
export class AgentProvisioner {
  private readonly tasks = new Map<string, Task>()
  /** Organizations whose agent was removed: nothing is scheduled for them again in this process. */
  private readonly removed = new Set<string>()
  private readonly stopping = new AbortController()
  private discovery: NodeJS.Timeout | undefined
  private readonly log: Logger

  public constructor(
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
    // The base-wallet agent has no org_agents row (cloud-wallet keeps its record); its restarts keep its ports.
    this.runtime.watch({
      onExit: async (orgId, exit) => {
        if (orgId !== BASE_WALLET_AGENT_ID) await this.recordExit(orgId, exit)
      },
      onRestarted: async (orgId, controllerEndpoint) => {
        if (orgId !== BASE_WALLET_AGENT_ID) await this.agents.update(orgId, { controllerEndpoint })
      },
    })
    const statuses: AgentStatus[] =
      this.runtime.kind === 'process' ? ['PENDING', 'WALLET_CREATED', 'DID_CREATED'] : ['PENDING', 'WALLET_CREATED']
    this.agents
      .findByRuntime(this.runtime.kind, statuses)
      .then((agents) => {
        if (agents.length > 0) this.log.info('Resuming agents', { count: agents.length })
        for (const agent of agents) this.schedule(agent.organization.id)
      })
      .catch((error: unknown) => this.log.error('Could not resume agents', { error: (error as Error).message }))
    if (this.runtime.trackedAgents()) {
      this.discovery = setInterval(() => void this.discoverAgents(), AGENT_DISCOVERY_INTERVAL_MS)
      this.discovery.unref()
    }
  }

  /**
   * Agents spun up through another API replica since this one started: looked after here too (the process
   * runtime watches them and takes one over when the replica running it dies).
   */
  private async discoverAgents(): Promise<void> {
    const tracked = this.runtime.trackedAgents()
    if (!tracked || this.stopping.signal.aborted) return
    try {
      for (const agent of await this.agents.findByRuntime(this.runtime.kind, ['DID_CREATED'])) {
        if (!tracked.has(agent.organization.id)) this.schedule(agent.organization.id)
      }
    } catch (error) {
      this.log.warn('Could not look for agents of other replicas', { error: (error as Error).message })
    }
  }

  /** Starts provisioning of the organization's agent unless it is already under way in this process. */
  public schedule(orgId: string): void {
    if (this.tasks.has(orgId) || this.stopping.signal.aborted || this.removed.has(orgId)) return
    const abort = new AbortController()
    const signal = AbortSignal.any([this.stopping.signal, abort.signal])
    const done = this.agents
      .inOwnContext(() => this.run(orgId, signal))
      .catch((error: unknown) => this.log.error('Provisioning crashed', { orgId, error: (error as Error).message }))
      .finally(() => this.tasks.delete(orgId))
    this.tasks.set(orgId, { done, abort })
  }

  /** Resolves when the agent's provisioning in this process (if any) has finished. */
  public async settled(orgId: string): Promise<void> {
    await this.tasks.get(orgId)?.done
  }

  /** Stops provisioning the organization's agent for good (the organization is being deleted). */
  public async cancel(orgId: string): Promise<void> {
    this.removed.add(orgId)
    const task = this.tasks.get(orgId)
    task?.abort.abort()
    await task?.done
  }

  /** Stops waiting on agents (their state stays as it is and is resumed at the next start). */
  public async close(): Promise<void> {
    clearInterval(this.discovery)
    this.stopping.abort()
    await Promise.all([...this.tasks.values()].map((task) => task.done))
  }

  private async run(orgId: string, signal: AbortSignal): Promise<void> {
    const agent = await this.agents.findFreshForOrg(orgId)
    if (!agent) return
    const log = this.log.child({ orgId, orgAgentId: agent.id })
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
        {
          orgId,
          label: agent.label,
          ports,
          secrets: () => this.secrets.issue(orgId),
          apiKey: async () => this.secrets.apiKeyOf(agent),
        },
        { signal, onStatus: (status) => this.mirror(orgId, status) },
      )
      if (signal.aborted || result.phase === 'pending') return
      if (result.phase !== 'ready') {
        await this.fail(orgId, result.phase === 'failed' ? result.reason : 'The agent is gone', log)
        observe('failure')
        return
      }
      const wasInProgress = isInProgress(agent.status)
      await this.agents.update(orgId, { controllerEndpoint: result.controllerEndpoint, ...(result.ports ?? {}) })
      await this.agents.moveStatus(orgId, 'PENDING', 'WALLET_CREATED')
      log.info('Agent ready', { controllerEndpoint: result.controllerEndpoint })
      await this.createFirstDid(agent, result.controllerEndpoint, log)
      if (wasInProgress) observe('success')
    } catch (error) {
      if (signal.aborted) return
      await this.fail(orgId, reasonOf(error), log).catch(() => undefined)
      observe('failure')
    }
  }

  /**
   * Creates the organization's first DID through the agent and records it as primary: claim the step (so two
   * API replicas resuming the same agent create one DID between them), call the agent outside any
   * transaction, then record the DID and DID_CREATED in one short transaction, only while the claim holds.
   */
  private async createFirstDid(agent: OrgAgent, controllerEndpoint: string, log: Logger): Promise<void> {
    const orgId = agent.organization.id
    const token = randomUUID()
    if (!(await this.agents.claim(orgId, 'WALLET_CREATED', token, DID_CLAIM_LEASE_MS))) return
    try {
      // A retried agent whose DID was recorded before it failed keeps that DID.
      const hasPrimary = (await this.dids.list(orgId)).some((record) => record.isPrimaryDid)
      const did = hasPrimary
        ? undefined
        : (
            await this.agentClients
              .forTarget({ orgId, endpoint: controllerEndpoint, apiKey: this.secrets.apiKeyOf(agent) })
              .createDid({
                method: agent.didMethod,
                ...(agent.domain ? { domain: agent.domain } : {}),
                ...(agent.encryptedSeed ? { seed: this.secrets.seedOf(agent) } : {}),
              })
          ).did
      const recorded = await this.agents.completeClaim(orgId, token, 'DID_CREATED', async () => {
        if (did) await this.dids.register(orgId, did, agent.didMethod, { primary: true })
      })
      if (!recorded) log.warn('Lost the claim on the first DID; another worker records it', { did })
      else if (did) log.info('Created DID', { did, method: agent.didMethod })
    } catch (error) {
      await this.agents.releaseClaim(orgId, token).catch(() => undefined)
      throw error
    }
  }

  /** Mirrors what the runtime reports while waiting (the Kubernetes runtime learns the ports from the operator). */
  private async mirror(orgId: string, status: AgentRuntimeStatus): Promise<void> {
    if (status.phase === 'pending' && status.ports) await this.agents.update(orgId, { ...status.ports })
  }

  private async recordExit(orgId: string, exit: AgentExit): Promise<void> {
    await this.agents.recordExit(orgId, exit)
  }

  private async fail(orgId: string, reason: string, log: Logger): Promise<void> {
    await this.agents.update(orgId, {
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
