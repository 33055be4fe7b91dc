import * as k8s from '@kubernetes/client-node'
import { ORGAGENT_API_VERSION, ORGAGENT_KIND, type OrgAgent, type OrgAgentSpec } from '../../../common/orgagent.types'
import { OrgAgentClient } from '../../../operator/src/orgagent/orgagent-client'

/** An OrgAgent with every required field; `spec` overrides any of them. */
export function anOrgAgent(namespace: string, name: string, spec: Partial<OrgAgentSpec> = {}): OrgAgent {
  return {
    apiVersion: ORGAGENT_API_VERSION,
    kind: ORGAGENT_KIND,
    metadata: { name, namespace },
    spec: {
      orgId: `org-${name}`,
      label: `Agent of ${name}`,
      image: 'idplane/idplane:test',
      secretName: `${name}-agent`,
      ...spec,
    },
  }
}

/** The Secret anOrgAgent() names, with the two required keys. */
export function anAgentSecret(namespace: string, name: string): k8s.V1Secret {
  const encode = (value: string) => Buffer.from(value).toString('base64')
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${name}-agent`, namespace },
    type: 'Opaque',
    data: { AGENT_API_KEY: encode(`api-key-${name}`), AGENT_WALLET_KEY: encode(`wallet-key-${name}`) },
  }
}

/** Test-side access to the cluster. */
export class Cluster {
  public readonly core: k8s.CoreV1Api
  public readonly custom: k8s.CustomObjectsApi
  public readonly agents: OrgAgentClient

  public constructor(public readonly kubeConfig: k8s.KubeConfig) {
    this.core = kubeConfig.makeApiClient(k8s.CoreV1Api)
    this.custom = kubeConfig.makeApiClient(k8s.CustomObjectsApi)
    this.agents = new OrgAgentClient(this.custom)
  }

  /** Creates the agent's Secret and the OrgAgent. */
  public async createAgent(namespace: string, name: string, spec: Partial<OrgAgentSpec> = {}): Promise<void> {
    await this.core.createNamespacedSecret({ namespace, body: anAgentSecret(namespace, name) })
    await this.custom.createNamespacedCustomObject({
      group: 'idplane.io',
      version: 'v1alpha1',
      plural: 'orgagents',
      namespace,
      body: anOrgAgent(namespace, name, spec),
    })
  }

  public async getAgent(namespace: string, name: string): Promise<OrgAgent | undefined> {
    return this.agents.get(namespace, name)
  }

  public async deleteAgent(namespace: string, name: string): Promise<void> {
    await this.custom.deleteNamespacedCustomObject({
      group: 'idplane.io',
      version: 'v1alpha1',
      plural: 'orgagents',
      namespace,
      name,
    })
  }

  public async findPod(namespace: string, name: string): Promise<k8s.V1Pod | undefined> {
    return this.core.readNamespacedPod({ namespace, name }).catch(notFoundAsUndefined)
  }

  public async findService(namespace: string, name: string): Promise<k8s.V1Service | undefined> {
    return this.core.readNamespacedService({ namespace, name }).catch(notFoundAsUndefined)
  }

  public async portCounters(namespace: string): Promise<Record<string, string>> {
    const configMap = await this.core
      .readNamespacedConfigMap({ namespace, name: 'idplane-agent-ports' })
      .catch(notFoundAsUndefined)
    return configMap?.data ?? {}
  }
}

function notFoundAsUndefined(error: unknown): undefined {
  if ((error as { code?: unknown }).code === 404) return undefined
  throw error
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  {
    timeoutMs = 20_000,
    intervalMs = 100,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined && value !== false) return value
    } catch (error) {
      lastError = error
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError).split('\n')[0]}` : ''}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
