import * as k8s from '@kubernetes/client-node'
import { UpstreamError, type Logger } from '@idplane/common'
import { agentSecretEnv, AGENT_ENV } from '@idplane/common/agent-contract/launch-env'
import { statusCodeOf } from '@idplane/common/kube-api-errors'
import {
  ORGAGENT_API_VERSION,
  ORGAGENT_GROUP,
  ORGAGENT_KIND,
  ORGAGENT_PLURAL,
  ORGAGENT_VERSION,
  type OrgAgent as OrgAgentResource,
} from '@idplane/common/orgagent.types'
import type { AgentsConfig, Config } from '../infra/config'
import {
  AgentRuntime,
  agentNamePart,
  agentEventsPath,
  agentSchemaName,
  type AgentLaunch,
  type AgentFeatures,
  type AgentSecrets,
  type AgentRuntimeStatus,
  type ProvisionOptions,
} from './agent-runtime'
import { sleep } from './sleep'
import { fromOrgAgentStatus, isSameStatus } from './orgagent-status'

/** @default 1 s between reads of the OrgAgent status while provisioning. */
const STATUS_POLL_MS = 1_000
/** @default 5 minutes for scheduling and image pulls, on top of the operator's own GET /agent polling. */
const SCHEDULING_GRACE_MS = 5 * 60_000
const LABELS = { 'app.kubernetes.io/name': 'idplane-agent', 'app.kubernetes.io/managed-by': 'idplane-api' }

export interface KubernetesRuntimeOptions {
  agents: AgentsConfig
  database: Config['database']
  /** Passed on to agents (AGENT_ALLOW_PRIVATE_TARGETS, through spec.env). @default private targets refused */
  network?: Config['network']
  /** Passed on to agents (AGENT_OPENID4VC, through spec.env). @default none */
  features?: AgentFeatures
  kubeConfig: k8s.KubeConfig
  logger: Logger
}

/**
 * Name of an organization's OrgAgent and Secret: no owner needed to find them again. The base-wallet agent's
 * are `agent-base-wallet`.
 */
export function agentResourceName(orgId: string): string {
  return `agent-${agentNamePart(orgId)}`
}

/**
 * The Kubernetes runtime (DESIGN.md, "Agent runtimes"): creates a Secret with the agent's keys and an OrgAgent
 * for the operator, then follows OrgAgent.status (ports, phase, endpoint, the Ready condition's message).
 */
export class KubernetesRuntime extends AgentRuntime {
  public readonly kind = 'kubernetes'
  private readonly core: k8s.CoreV1Api
  private readonly custom: k8s.CustomObjectsApi

  public constructor(private readonly options: KubernetesRuntimeOptions) {
    super()
    this.core = options.kubeConfig.makeApiClient(k8s.CoreV1Api)
    this.custom = options.kubeConfig.makeApiClient(k8s.CustomObjectsApi)
  }

  public async provision(launch: AgentLaunch, options: ProvisionOptions = {}): Promise<AgentRuntimeStatus> {
    const name = agentResourceName(launch.orgId)
    const log = this.options.logger.child({ component: 'agent-runtime', orgId: launch.orgId, orgAgent: name })
    // An existing OrgAgent keeps its Secret: its Pod's env was read from it (the event token is not rotated).
    if ((await this.status(launch.orgId)).phase === 'absent') {
      const secrets = await launch.secrets()
      await this.call('create the agent Secret', () => this.ensureSecret(name, launch.orgId, secrets))
      await this.call('create the OrgAgent', () => this.ensureOrgAgent(name, launch, secrets.eventToken !== undefined))
      log.info('Created OrgAgent', { namespace: this.options.agents.namespace })
    }
    const { pollAttempts, pollIntervalMs } = this.options.agents
    const deadline = Date.now() + pollAttempts * pollIntervalMs + SCHEDULING_GRACE_MS
    let last: AgentRuntimeStatus | undefined
    while (!options.signal?.aborted) {
      const current = await this.status(launch.orgId)
      if (current.phase === 'absent') return { phase: 'failed', reason: `OrgAgent ${name} was deleted` }
      if (!last || !isSameStatus(last, current)) {
        await options.onStatus?.(current)
        last = current
      }
      if (current.phase !== 'pending') return current
      if (Date.now() > deadline) {
        return { phase: 'failed', ports: current.ports, reason: `OrgAgent ${name} did not become Ready in time` }
      }
      await sleep(Math.min(STATUS_POLL_MS, pollIntervalMs), options.signal)
    }
    return last ?? { phase: 'pending' }
  }

  public async status(orgId: string): Promise<AgentRuntimeStatus> {
    const name = agentResourceName(orgId)
    const resource = await this.call('read the OrgAgent', async () => {
      try {
        return (await this.custom.getNamespacedCustomObject({ ...this.kindRef(), name })) as OrgAgentResource
      } catch (error) {
        if (statusCodeOf(error) === 404) return undefined
        throw error
      }
    })
    return resource ? fromOrgAgentStatus(resource.status) : { phase: 'absent' }
  }

  public async stop(orgId: string): Promise<void> {
    const name = agentResourceName(orgId)
    const namespace = this.options.agents.namespace
    await this.call('delete the OrgAgent', () =>
      ignoreNotFound(this.custom.deleteNamespacedCustomObject({ ...this.kindRef(), name })),
    )
    await this.call('delete the agent Secret', () =>
      ignoreNotFound(this.core.deleteNamespacedSecret({ name, namespace })),
    )
  }

  /** Deletes the OrgAgent (the operator removes its Pod and Service) and the Secret with the keys. */
  public async remove(orgId: string): Promise<void> {
    await this.stop(orgId)
  }

  public async close(): Promise<void> {
    // Nothing held: agents keep running in the cluster while the API restarts.
  }

  /** Creates the Secret, or replaces it (a retry after a crash may find it with the same keys). */
  private async ensureSecret(name: string, orgId: string, secrets: AgentSecrets): Promise<void> {
    const namespace = this.options.agents.namespace
    const { database } = this.options
    const body: k8s.V1Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace, labels: LABELS, annotations: { 'idplane.io/org-id': orgId } },
      type: 'Opaque',
      // `data`, not `stringData`: the same object whatever the API server does with the write-only field.
      data: base64Values(
        agentSecretEnv({
          apiKey: secrets.apiKey,
          walletKey: secrets.walletKey,
          eventToken: secrets.eventToken,
          ...(database.kind === 'postgres' ? { databaseUrl: database.url } : {}),
        }),
      ),
    }
    try {
      await this.core.createNamespacedSecret({ namespace, body })
    } catch (error) {
      if (statusCodeOf(error) !== 409) throw error
      await this.core.replaceNamespacedSecret({ name, namespace, body })
    }
  }

  /**
   * Creates the OrgAgent; one that already exists (a concurrent or an earlier attempt) is kept. An agent
   * launched without an event token gets no event URL (the agent refuses a URL without its token).
   */
  private async ensureOrgAgent(name: string, launch: AgentLaunch, postsEvents: boolean): Promise<void> {
    const { agents, database } = this.options
    const body: OrgAgentResource = {
      apiVersion: ORGAGENT_API_VERSION,
      kind: ORGAGENT_KIND,
      metadata: {
        name,
        namespace: agents.namespace,
        labels: LABELS,
        annotations: { 'idplane.io/org-id': launch.orgId },
      },
      spec: {
        orgId: launch.orgId,
        label: launch.label,
        image: agents.image ?? 'idplane:latest',
        ...(agents.imagePullPolicy ? { imagePullPolicy: agents.imagePullPolicy } : {}),
        secretName: name,
        ...(postsEvents ? { eventUrl: `${agents.internalUrl}${agentEventsPath(launch.orgId)}` } : {}),
        ...(agents.publicEndpointBase ? { publicEndpointBase: agents.publicEndpointBase } : {}),
        // Through spec.env, which the operator passes on: the API serves the ledger's routes beside the event sink.
        env: [
          { name: AGENT_ENV.ledgerUrl, value: agents.internalUrl },
          ...(database.kind === 'postgres'
            ? [{ name: AGENT_ENV.databaseSchema, value: agentSchemaName(launch.orgId) }]
            : []),
          ...(this.options.network?.allowPrivateTargets
            ? [{ name: AGENT_ENV.allowPrivateTargets, value: 'true' }]
            : []),
          ...(this.options.features?.openId4Vc ? [{ name: AGENT_ENV.openId4Vc, value: 'true' }] : []),
        ],
      },
    }
    try {
      await this.custom.createNamespacedCustomObject({ ...this.kindRef(), body })
    } catch (error) {
      if (statusCodeOf(error) !== 409) throw error
    }
  }

  private kindRef() {
    return {
      group: ORGAGENT_GROUP,
      version: ORGAGENT_VERSION,
      plural: ORGAGENT_PLURAL,
      namespace: this.options.agents.namespace,
    }
  }

  /** @throws UpstreamError naming what failed; never the request body (it holds the keys). */
  private async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      const code = statusCodeOf(error)
      throw new UpstreamError(`Could not ${what}${code === undefined ? '' : ` (HTTP ${code})`}`, { cause: error })
    }
  }
}

function base64Values(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]),
  )
}

async function ignoreNotFound(request: Promise<unknown>): Promise<void> {
  try {
    await request
  } catch (error) {
    if (statusCodeOf(error) !== 404) throw error
  }
}

/** KUBECONFIG when set, else the in-cluster service account (client-node's default order). */
export function loadKubeConfig(kubeconfigPath: string | undefined): k8s.KubeConfig {
  const kubeConfig = new k8s.KubeConfig()
  if (kubeconfigPath) kubeConfig.loadFromFile(kubeconfigPath)
  else kubeConfig.loadFromDefault()
  return kubeConfig
}
