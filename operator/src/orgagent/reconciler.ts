import type * as k8s from '@kubernetes/client-node'
import type { Logger } from '@idplane/common'
import type { OrgAgent, OrgAgentStatus } from '@idplane/common/orgagent.types'
import { isConflict, isNotFound } from '../kube/api-errors'
import { MERGE_PATCH } from '../kube/patch'
import type { PortAllocator, PortPair } from '../ports/allocator'
import type { WorkResult } from '../workqueue'
import type { AgentProbe } from '@idplane/common/agent-contract/probe'
import { agentUrl } from './agent-url'
import {
  CONDITION_PORTS_ALLOCATED,
  CONDITION_READY,
  REASON_AGENT_REACHABLE,
  REASON_AGENT_UNREACHABLE,
  REASON_POD_REPLACING,
  REASON_PORTS_RECORDED,
  REASON_SECRET_NOT_FOUND,
  REASON_WAITING_FOR_AGENT,
} from './conditions'
import { addFinalizer, finalize, hasFinalizer } from './finalizer'
import type { OrgAgentClient } from './orgagent-client'
import { ANNOTATION_POD_SPEC_HASH, buildPod, buildService, servicePortsDiffer } from './resources'
import {
  findCondition,
  isSameStatus,
  phaseFromConditions,
  setCondition,
  statusPatch,
  type ConditionInput,
} from './status'

export interface ReconcilerOptions {
  pollAttempts: number
  pollIntervalMs: number
  pollTimeoutMs: number
  urlTemplate: string
}

export interface ReconcilerDependencies {
  agents: OrgAgentClient
  core: k8s.CoreV1Api
  allocator: PortAllocator
  probe: AgentProbe
  logger: Logger
  options: ReconcilerOptions
  now?: () => Date
}

/** The working state of one reconcile: the OrgAgent as last written and the status being built. */
interface Pass {
  agent: OrgAgent
  status: OrgAgentStatus
  log: Logger
}

type PodState = { kind: 'created' } | { kind: 'waiting'; retryAfterMs: number } | { kind: 'running'; pod: k8s.V1Pod }

/** How long to wait for a Pod being deleted before looking again. */
const POD_GONE_RECHECK_MS = 500

/**
 * Reconciles one OrgAgent as a list of ensure-steps, each looking at state, never at the event that
 * triggered it: finalizer, ports (recorded in status before anything is created), Service, Secret, Pod,
 * then GET /agent until it answers 200 or the attempts run out.
 */
export class OrgAgentReconciler {
  /** Earliest time of the next /agent poll per key; lost on restart, which costs at most one early poll. */
  private readonly nextPollAt = new Map<string, number>()
  private readonly now: () => Date

  public constructor(private readonly deps: ReconcilerDependencies) {
    this.now = deps.now ?? (() => new Date())
  }

  public async reconcile(key: string): Promise<WorkResult> {
    const [namespace, name] = key.split('/')
    const fetched = await this.deps.agents.get(namespace, name)
    if (!fetched) {
      this.nextPollAt.delete(key)
      return {}
    }
    const log = this.deps.logger.child({ orgAgent: name, namespace })
    if (fetched.metadata.deletionTimestamp) {
      this.nextPollAt.delete(key)
      await finalize(this.deps, await this.markTerminating(fetched))
      return {}
    }
    const agent = hasFinalizer(fetched) ? fetched : await addFinalizer(this.deps.agents, fetched)
    const pass: Pass = { agent, status: structuredClone(agent.status ?? {}), log }
    const ports = await this.ensurePorts(pass)
    await this.ensureService(pass, ports)
    if (!(await this.ensureSecret(pass))) return { requeueAfterMs: this.deps.options.pollIntervalMs }
    const pod = await this.ensurePod(pass, key, ports)
    if (pod.kind === 'waiting') {
      await this.commit(pass)
      return { requeueAfterMs: pod.retryAfterMs }
    }
    return this.ensureReachable(pass, key, ports, pod)
  }

  /** Ports come from status when recorded; otherwise they are allocated and written to status at once. */
  private async ensurePorts(pass: Pass): Promise<PortPair> {
    const { adminPort, inboundPort } = pass.status
    if (adminPort !== undefined && inboundPort !== undefined) return { adminPort, inboundPort }
    const ports = await this.deps.allocator.allocate(pass.agent.metadata.uid ?? '')
    pass.status.adminPort = ports.adminPort
    pass.status.inboundPort = ports.inboundPort
    this.condition(pass, {
      type: CONDITION_PORTS_ALLOCATED,
      status: 'True',
      reason: REASON_PORTS_RECORDED,
      message: `Admin port ${ports.adminPort}, inbound port ${ports.inboundPort}`,
    })
    this.condition(pass, {
      type: CONDITION_READY,
      status: 'False',
      reason: REASON_WAITING_FOR_AGENT,
      message: 'Creating the agent Pod',
    })
    await this.commit(pass)
    pass.log.info('Allocated ports', { ...ports })
    return ports
  }

  private async ensureService(pass: Pass, ports: PortPair): Promise<void> {
    const desired = buildService(pass.agent, ports)
    const name = desired.metadata?.name ?? ''
    const namespace = desired.metadata?.namespace ?? ''
    pass.status.serviceName = name
    try {
      const live = await this.deps.core.readNamespacedService({ name, namespace })
      if (!servicePortsDiffer(live, desired)) return
      await this.deps.core.patchNamespacedService(
        { name, namespace, body: { spec: { ports: desired.spec?.ports } } },
        MERGE_PATCH,
      )
      pass.log.info('Updated Service', { service: name })
    } catch (error) {
      if (!isNotFound(error)) throw error
      await this.deps.core.createNamespacedService({ namespace, body: desired })
      pass.log.info('Created Service', { service: name })
    }
  }

  /** The Pod cannot start without its Secret: say so in Ready and look again later (the API may create it next). */
  private async ensureSecret(pass: Pass): Promise<boolean> {
    const name = pass.agent.spec.secretName
    try {
      await this.deps.core.readNamespacedSecret({ name, namespace: pass.agent.metadata.namespace ?? '' })
      return true
    } catch (error) {
      if (!isNotFound(error)) throw error
      this.condition(pass, {
        type: CONDITION_READY,
        status: 'False',
        reason: REASON_SECRET_NOT_FOUND,
        message: `Secret ${name} not found`,
      })
      await this.commit(pass)
      pass.log.info('Waiting for Secret', { secret: name })
      return false
    }
  }

  private async ensurePod(pass: Pass, key: string, ports: PortPair): Promise<PodState> {
    const desired = buildPod(pass.agent, ports)
    const name = desired.metadata?.name ?? ''
    const namespace = desired.metadata?.namespace ?? ''
    pass.status.podName = name
    let live: k8s.V1Pod
    try {
      live = await this.deps.core.readNamespacedPod({ name, namespace })
    } catch (error) {
      if (!isNotFound(error)) throw error
      return this.createPod(pass, key, desired)
    }
    if (live.metadata?.deletionTimestamp) return { kind: 'waiting', retryAfterMs: POD_GONE_RECHECK_MS }
    const wanted = desired.metadata?.annotations?.[ANNOTATION_POD_SPEC_HASH]
    if (live.metadata?.annotations?.[ANNOTATION_POD_SPEC_HASH] === wanted) return { kind: 'running', pod: live }
    try {
      await this.deps.core.deleteNamespacedPod({
        name,
        namespace,
        body: { preconditions: { uid: live.metadata?.uid } },
      })
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error)) throw error
    }
    pass.log.info('Deleted Pod', { pod: name, reason: 'spec changed' })
    this.resetReadiness(pass, REASON_POD_REPLACING, 'Replacing the agent Pod after a spec change')
    return { kind: 'waiting', retryAfterMs: POD_GONE_RECHECK_MS }
  }

  private async createPod(pass: Pass, key: string, desired: k8s.V1Pod): Promise<PodState> {
    // Status first: a restart between these two writes finds the ports recorded and a fresh poll count.
    this.resetReadiness(pass, REASON_WAITING_FOR_AGENT, 'Waiting for the agent Pod to start')
    await this.commit(pass)
    try {
      await this.deps.core.createNamespacedPod({ namespace: desired.metadata?.namespace ?? '', body: desired })
    } catch (error) {
      if (isConflict(error)) return { kind: 'waiting', retryAfterMs: POD_GONE_RECHECK_MS }
      throw error
    }
    pass.log.info('Created Pod', { pod: desired.metadata?.name, image: pass.agent.spec.image })
    this.nextPollAt.set(key, this.now().getTime() + this.deps.options.pollIntervalMs)
    return { kind: 'created' }
  }

  /** A new Pod starts from zero: no endpoint until it answers, a fresh poll count. */
  private resetReadiness(pass: Pass, reason: string, message: string): void {
    delete pass.status.controllerEndpoint
    pass.status.pollAttempts = 0
    this.condition(pass, { type: CONDITION_READY, status: 'False', reason, message })
  }

  private async ensureReachable(
    pass: Pass,
    key: string,
    ports: PortPair,
    pod: Exclude<PodState, { kind: 'waiting' }>,
  ): Promise<WorkResult> {
    const { pollAttempts, pollIntervalMs, pollTimeoutMs, urlTemplate } = this.deps.options
    const ready = findCondition(pass.status.conditions, CONDITION_READY)
    const attempts = pass.status.pollAttempts ?? 0
    const settled =
      (ready?.status === 'True' && pass.status.controllerEndpoint) || ready?.reason === REASON_AGENT_UNREACHABLE
    if (pod.kind === 'created') {
      await this.commit(pass)
      return { requeueAfterMs: pollIntervalMs }
    }
    if (settled) {
      await this.commit(pass)
      return {}
    }
    // The first poll waits for the Pod to report Running, or one interval; later polls are one interval apart.
    const dueAt = this.nextPollAt.get(key) ?? 0
    const started = pod.pod.status?.phase === 'Running' && attempts === 0
    const wait = dueAt - this.now().getTime()
    if (wait > 0 && !started) {
      await this.commit(pass)
      return { requeueAfterMs: wait }
    }
    const endpoint = agentUrl(urlTemplate, {
      service: pass.status.serviceName ?? '',
      namespace: pass.agent.metadata.namespace ?? '',
      name: pass.agent.metadata.name ?? '',
      adminPort: ports.adminPort,
    })
    const result = await this.deps.probe(endpoint, pollTimeoutMs)
    pass.status.pollAttempts = attempts + 1
    if (result.ok) {
      pass.status.controllerEndpoint = endpoint
      this.condition(pass, {
        type: CONDITION_READY,
        status: 'True',
        reason: REASON_AGENT_REACHABLE,
        message: `GET /agent answered 200 on attempt ${attempts + 1}`,
      })
      await this.commit(pass)
      this.nextPollAt.delete(key)
      pass.log.info('Agent reachable', { controllerEndpoint: endpoint, attempts: attempts + 1 })
      return {}
    }
    if (attempts + 1 >= pollAttempts) {
      delete pass.status.controllerEndpoint
      this.condition(pass, {
        type: CONDITION_READY,
        status: 'False',
        reason: REASON_AGENT_UNREACHABLE,
        message: `GET /agent did not answer 200 in ${pollAttempts} attempts (last: ${result.detail})`,
      })
      await this.commit(pass)
      this.nextPollAt.delete(key)
      pass.log.warn('Agent unreachable', { attempts: attempts + 1, last: result.detail })
      return {}
    }
    this.condition(pass, {
      type: CONDITION_READY,
      status: 'False',
      reason: REASON_WAITING_FOR_AGENT,
      message: `GET /agent attempt ${attempts + 1} of ${pollAttempts}: ${result.detail}`,
    })
    await this.commit(pass)
    this.nextPollAt.set(key, this.now().getTime() + pollIntervalMs)
    return { requeueAfterMs: pollIntervalMs }
  }

  private condition(pass: Pass, input: Omit<ConditionInput, 'observedGeneration'>): void {
    pass.status.conditions = setCondition(
      pass.status.conditions,
      { ...input, observedGeneration: pass.agent.metadata.generation },
      this.now(),
    )
  }

  /** Writes the status when it changed, with phase and observedGeneration derived here and nowhere else. */
  private async commit(pass: Pass): Promise<void> {
    const next: OrgAgentStatus = {
      ...pass.status,
      phase: phaseFromConditions(pass.status.conditions, false),
      observedGeneration: pass.agent.metadata.generation,
    }
    if (isSameStatus(pass.agent.status, next)) return
    const previousPhase = pass.agent.status?.phase
    const namespace = pass.agent.metadata.namespace ?? ''
    const updated = await this.deps.agents.patchStatus(
      namespace,
      pass.agent.metadata.name ?? '',
      statusPatch(pass.agent.status, next),
    )
    pass.agent = {
      ...pass.agent,
      metadata: { ...pass.agent.metadata, resourceVersion: updated.metadata.resourceVersion },
      status: next,
    }
    pass.status = structuredClone(next)
    if (previousPhase !== next.phase) pass.log.info('Updated OrgAgent status', { phase: next.phase })
  }

  /** Shows Terminating while the finalizer runs; returns the OrgAgent as written. */
  private async markTerminating(agent: OrgAgent): Promise<OrgAgent> {
    if (agent.status?.phase === 'Terminating' || !hasFinalizer(agent)) return agent
    const status = { ...agent.status, phase: phaseFromConditions(agent.status?.conditions, true) }
    return this.deps.agents.patchStatus(agent.metadata.namespace ?? '', agent.metadata.name ?? '', status)
  }
}
