import type * as k8s from '@kubernetes/client-node'
import { UpstreamError } from '@idplane/common'
import {
  ORGAGENT_GROUP,
  ORGAGENT_PLURAL,
  ORGAGENT_VERSION,
  type OrgAgent,
  type OrgAgentList,
  type OrgAgentStatus,
} from '@idplane/common/orgagent.types'
import { isNotFound } from '../kube/api-errors'
import { MERGE_PATCH } from '../kube/patch'

/** An OrgAgent as the informer cache holds it (client-node's object type; timestamps stay strings). */
export type OrgAgentObject = k8s.KubernetesObject & { status?: OrgAgentStatus }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * Narrows what the CustomObjects API returns (typed `any` by client-node) to an OrgAgent.
 * @throws UpstreamError when the API server answered something that is not an OrgAgent.
 */
export function toOrgAgent(value: unknown): OrgAgent {
  if (!isRecord(value) || !isRecord(value.metadata) || !isRecord(value.spec)) {
    throw new UpstreamError('The API server returned an object that is not an OrgAgent')
  }
  return value as unknown as OrgAgent
}

/** Typed access to orgagents.idplane.io; every patch is a JSON merge patch. */
export class OrgAgentClient {
  public constructor(private readonly custom: k8s.CustomObjectsApi) {}

  /** The OrgAgent, or undefined when it is gone. */
  public async get(namespace: string, name: string): Promise<OrgAgent | undefined> {
    try {
      return toOrgAgent(await this.custom.getNamespacedCustomObject({ ...this.kind(), namespace, name }))
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw error
    }
  }

  public async list(namespace?: string): Promise<OrgAgentList> {
    const raw: unknown = namespace
      ? await this.custom.listNamespacedCustomObject({ ...this.kind(), namespace })
      : await this.custom.listClusterCustomObject(this.kind())
    if (!isRecord(raw) || !Array.isArray(raw.items))
      throw new UpstreamError('The API server returned a malformed OrgAgent list')
    return { ...(raw as object), items: raw.items.map(toOrgAgent) }
  }

  /** The list in the shape client-node's informer wants. */
  public async listObjects(namespace?: string): Promise<k8s.KubernetesListObject<OrgAgentObject>> {
    const list = await this.list(namespace)
    // Timestamps arrive as strings where client-node types Date; nothing in the cache reads them.
    return list as unknown as k8s.KubernetesListObject<OrgAgentObject>
  }

  public async patch(namespace: string, name: string, body: object): Promise<OrgAgent> {
    return toOrgAgent(
      await this.custom.patchNamespacedCustomObject({ ...this.kind(), namespace, name, body }, MERGE_PATCH),
    )
  }

  public async patchStatus(namespace: string, name: string, status: object): Promise<OrgAgent> {
    return toOrgAgent(
      await this.custom.patchNamespacedCustomObjectStatus(
        { ...this.kind(), namespace, name, body: { status } },
        MERGE_PATCH,
      ),
    )
  }

  public path(namespace?: string): string {
    const base = `/apis/${ORGAGENT_GROUP}/${ORGAGENT_VERSION}`
    return namespace ? `${base}/namespaces/${namespace}/${ORGAGENT_PLURAL}` : `${base}/${ORGAGENT_PLURAL}`
  }

  private kind() {
    return { group: ORGAGENT_GROUP, version: ORGAGENT_VERSION, plural: ORGAGENT_PLURAL }
  }
}
