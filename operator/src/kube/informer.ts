import * as k8s from '@kubernetes/client-node'
import type { Logger } from '@idplane/common'
import { describeApiError } from './api-errors'

export type InformerEvent = 'add' | 'update' | 'delete'

export interface RestartingInformerOptions<T extends k8s.KubernetesObject> {
  /** Kind, for logs. */
  kind: string
  /** API path watched, e.g. /api/v1/pods or /api/v1/namespaces/ns/pods. */
  path: string
  list: () => Promise<k8s.KubernetesListObject<T>>
  labelSelector?: string
  logger: Logger
  /** First delay before a restart; doubles per consecutive failure up to maxRestartDelayMs. @default 200 */
  minRestartDelayMs?: number
  /** @default 10000 */
  maxRestartDelayMs?: number
}

/**
 * client-node's informer re-lists on 410 Gone but stops for good on any other error (API server restart,
 * network cut, 5xx). This wrapper restarts it with exponential backoff until stop() is called.
 */
export class RestartingInformer<T extends k8s.KubernetesObject> {
  private readonly informer: k8s.Informer<T> & k8s.ObjectCache<T>
  private readonly handlers: ((event: InformerEvent, object: T) => void)[] = []
  private stopped = true
  private failures = 0
  private restartTimer: NodeJS.Timeout | undefined
  private synced = false

  public constructor(
    kubeConfig: k8s.KubeConfig,
    private readonly options: RestartingInformerOptions<T>,
  ) {
    const list = async () => {
      const result = await options.list()
      this.synced = true
      return result
    }
    this.informer = k8s.makeInformer(kubeConfig, options.path, list, options.labelSelector)
    for (const event of ['add', 'update', 'delete'] as const) {
      this.informer.on(event, (object) => {
        this.failures = 0
        for (const handler of this.handlers) handler(event, object)
      })
    }
    this.informer.on('error', (error: unknown) => this.onError(error))
  }

  public onEvent(handler: (event: InformerEvent, object: T) => void): void {
    this.handlers.push(handler)
  }

  /** Starts listing and watching; resolves once the first list attempt is over (the cache may be empty after a failure). */
  public async start(): Promise<void> {
    this.stopped = false
    await this.informer.start()
  }

  public async stop(): Promise<void> {
    this.stopped = true
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.restartTimer = undefined
    await this.informer.stop()
  }

  public hasSynced(): boolean {
    return this.synced
  }

  public list(): readonly T[] {
    return this.informer.list()
  }

  public get(name: string, namespace?: string): T | undefined {
    return this.informer.get(name, namespace)
  }

  private onError(error: unknown): void {
    if (this.stopped) return
    const min = this.options.minRestartDelayMs ?? 200
    const delay = Math.min(this.options.maxRestartDelayMs ?? 10_000, min * 2 ** this.failures)
    this.failures += 1
    this.options.logger.warn('Watch failed, restarting informer', {
      kind: this.options.kind,
      error: describeApiError(error),
      delayMs: delay,
    })
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined
      if (this.stopped) return
      this.informer.start().catch((startError: unknown) => this.onError(startError))
    }, delay)
  }
}
