import type * as k8s from '@kubernetes/client-node'
import { ConflictError, type Logger } from '@idplane/common'
import { ADMIN_PORT_COUNTER_START, INBOUND_PORT_COUNTER_START, type PortPair } from '@idplane/common/ports'
import { isConflict, isNotFound } from '../kube/api-errors'

/** Counter start values (common/ports.ts): the first agent takes the incremented value, 8002 / 9002. */
export { ADMIN_PORT_COUNTER_START, INBOUND_PORT_COUNTER_START, type PortPair }
export const ADMIN_PORT_KEY = 'adminPort'
export const INBOUND_PORT_KEY = 'inboundPort'
/** Each allocation is also recorded under `agent.<uid>` so that a retry of the same OrgAgent gets the same ports. */
export const ALLOCATION_KEY_PREFIX = 'agent.'

/** The one ConfigMap holding the counters; `replace` must honour metadata.resourceVersion (409 when stale). */
export interface ConfigMapStore {
  read(): Promise<k8s.V1ConfigMap | undefined>
  create(configMap: k8s.V1ConfigMap): Promise<k8s.V1ConfigMap>
  replace(configMap: k8s.V1ConfigMap): Promise<k8s.V1ConfigMap>
}

export interface PortAllocatorOptions {
  name: string
  namespace: string
  logger: Logger
  /** Optimistic-concurrency retries before giving up. @default 30 */
  maxAttempts?: number
}

const allocationKey = (owner: string) => `${ALLOCATION_KEY_PREFIX}${owner}`

function parsePair(value: string | undefined): PortPair | undefined {
  const match = /^(\d+),(\d+)$/.exec(value ?? '')
  return match ? { adminPort: Number(match[1]), inboundPort: Number(match[2]) } : undefined
}

function counter(data: Record<string, string>, key: string, start: number): number {
  const value = Number(data[key])
  return Number.isSafeInteger(value) && value >= start ? value : start
}

/**
 * Allocates admin/inbound port pairs from counters in a ConfigMap. Every write carries the resourceVersion
 * it read, so two writers can never hand out the same port: the loser gets 409, re-reads and retries.
 * Allocations in this process are also serialized, so the operator's own workers do not fight each other.
 */
export class PortAllocator {
  private tail: Promise<unknown> = Promise.resolve()

  public constructor(
    private readonly store: ConfigMapStore,
    private readonly options: PortAllocatorOptions,
  ) {}

  /**
   * Returns the ports recorded for `owner` (an OrgAgent uid), allocating the next pair on first call.
   * @throws ConflictError when the ConfigMap kept changing under every attempt.
   */
  public allocate(owner: string): Promise<PortPair> {
    return this.serialized(() => this.update(owner, (data) => this.take(owner, data)))
  }

  /** Forgets the record of `owner`'s ports. Ports are never handed out again: the counters only grow. */
  public release(owner: string): Promise<void> {
    return this.serialized(async () => {
      await this.update(owner, (data) => {
        if (data[allocationKey(owner)] === undefined) return { result: undefined }
        const next = { ...data }
        delete next[allocationKey(owner)]
        return { result: undefined, data: next }
      })
    })
  }

  private take(owner: string, data: Record<string, string>): { result: PortPair; data?: Record<string, string> } {
    const recorded = parsePair(data[allocationKey(owner)])
    if (recorded) return { result: recorded }
    const ports = {
      adminPort: counter(data, ADMIN_PORT_KEY, ADMIN_PORT_COUNTER_START) + 1,
      inboundPort: counter(data, INBOUND_PORT_KEY, INBOUND_PORT_COUNTER_START) + 1,
    }
    return {
      result: ports,
      data: {
        ...data,
        [ADMIN_PORT_KEY]: String(ports.adminPort),
        [INBOUND_PORT_KEY]: String(ports.inboundPort),
        [allocationKey(owner)]: `${ports.adminPort},${ports.inboundPort}`,
      },
    }
  }

  /** Read-modify-write with a resourceVersion precondition; `change` returns no data when nothing is to be written. */
  private async update<T>(
    owner: string,
    change: (data: Record<string, string>) => { result: T; data?: Record<string, string> },
  ): Promise<T> {
    const maxAttempts = this.options.maxAttempts ?? 30
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const current = await this.store.read()
      const { result, data } = change(current?.data ?? {})
      if (!data) return result
      try {
        if (current) {
          await this.store.replace({ ...current, data })
        } else {
          await this.store.create({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: this.options.name,
              namespace: this.options.namespace,
              labels: { 'app.kubernetes.io/name': 'idplane' },
            },
            data,
          })
        }
        return result
      } catch (error) {
        if (!isConflict(error)) throw error
        this.options.logger.debug('Port ConfigMap changed, retrying', { owner, attempt })
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 10 * attempt)))
      }
    }
    throw new ConflictError(
      `Port ConfigMap ${this.options.namespace}/${this.options.name} kept changing; gave up after ${maxAttempts} attempts`,
    )
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task)
    this.tail = run.catch(() => undefined)
    return run
  }
}

/** A ConfigMapStore over the CoreV1 API. */
export function configMapStore(core: k8s.CoreV1Api, namespace: string, name: string): ConfigMapStore {
  return {
    read: async () => {
      try {
        return await core.readNamespacedConfigMap({ name, namespace })
      } catch (error) {
        if (isNotFound(error)) return undefined
        throw error
      }
    },
    create: (body) => core.createNamespacedConfigMap({ namespace, body }),
    replace: (body) => core.replaceNamespacedConfigMap({ name, namespace, body }),
  }
}
