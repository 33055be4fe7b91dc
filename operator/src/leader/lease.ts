import * as k8s from '@kubernetes/client-node'
import type { Logger } from '@idplane/common'
import { describeApiError, isConflict, isNotFound } from '../kube/api-errors'

export interface LeaderElectionOptions {
  name: string
  namespace: string
  identity: string
  durationSeconds: number
  /** A leader that could not renew for this long steps down. */
  renewDeadlineMs: number
  /** Time between two acquire or renew attempts. */
  retryPeriodMs: number
  logger: Logger
}

export interface LeaderCallbacks {
  onStartedLeading(): Promise<void> | void
  onStoppedLeading(): Promise<void> | void
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, after client-go's leaderelection package: a candidate
 * takes the Lease when it is free or when its record (holder and resourceVersion) has not changed for a
 * whole lease duration, measured on the local clock so that clock skew between replicas does not matter; every write carries the
 * resourceVersion it read, so two candidates can never both win.
 */
export class LeaderElector {
  private leading = false
  private running = false
  private timer: NodeJS.Timeout | undefined
  private loop: Promise<void> = Promise.resolve()
  private observedRecord = ''
  private observedAt = 0
  private lastRenewal = 0

  public constructor(
    private readonly coordination: k8s.CoordinationV1Api,
    private readonly options: LeaderElectionOptions,
    private readonly callbacks: LeaderCallbacks,
  ) {}

  public isLeader(): boolean {
    return this.leading
  }

  public start(): void {
    if (this.running) return
    this.running = true
    this.schedule(0)
  }

  /** Stops campaigning; a leader releases the Lease so that another replica takes over at once. */
  public async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    await this.loop
    if (!this.leading) return
    await this.stepDown('Stopped')
    try {
      await this.release()
      this.options.logger.info('Released Lease', { lease: this.options.name, identity: this.options.identity })
    } catch (error) {
      this.options.logger.warn('Lease release failed', { lease: this.options.name, error: describeApiError(error) })
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.loop = this.tick().finally(() => {
        if (this.running) this.schedule(this.options.retryPeriodMs)
      })
    }, delayMs)
  }

  private async tick(): Promise<void> {
    let held: boolean
    try {
      held = await this.tryAcquireOrRenew()
    } catch (error) {
      this.options.logger.warn('Lease update failed', { lease: this.options.name, error: describeApiError(error) })
      held = false
    }
    if (!this.running) {
      // stop() came while this attempt was in flight: do not sit on a Lease nobody will renew.
      if (held && !this.leading) await this.release().catch(() => undefined)
      return
    }
    if (held) {
      this.lastRenewal = Date.now()
      if (!this.leading) {
        this.leading = true
        this.options.logger.info('Acquired Lease', { lease: this.options.name, identity: this.options.identity })
        await this.callbacks.onStartedLeading()
      }
    } else if (this.leading && Date.now() - this.lastRenewal > this.options.renewDeadlineMs) {
      await this.stepDown('Lost Lease')
    }
  }

  private async stepDown(message: string): Promise<void> {
    this.leading = false
    this.options.logger.info(message, { lease: this.options.name, identity: this.options.identity })
    await this.callbacks.onStoppedLeading()
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const { name, namespace, identity, durationSeconds } = this.options
    const now = new k8s.V1MicroTime(Date.now())
    let lease: k8s.V1Lease
    try {
      lease = await this.coordination.readNamespacedLease({ name, namespace })
    } catch (error) {
      if (!isNotFound(error)) throw error
      return this.write(() =>
        this.coordination.createNamespacedLease({
          namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name, namespace },
            spec: {
              holderIdentity: identity,
              leaseDurationSeconds: durationSeconds,
              acquireTime: now,
              renewTime: now,
              leaseTransitions: 0,
            },
          },
        }),
      )
    }
    const spec = lease.spec ?? {}
    const holder = spec.holderIdentity ?? ''
    const record = `${holder}|${lease.metadata?.resourceVersion ?? ''}`
    if (record !== this.observedRecord) {
      this.observedRecord = record
      this.observedAt = Date.now()
    }
    const isOurs = holder === identity
    const expired =
      holder === '' || Date.now() > this.observedAt + (spec.leaseDurationSeconds ?? durationSeconds) * 1000
    if (!isOurs && !expired) return false
    const transitions = spec.leaseTransitions ?? 0
    return this.write(() =>
      this.coordination.replaceNamespacedLease({
        name,
        namespace,
        body: {
          ...lease,
          spec: {
            ...spec,
            holderIdentity: identity,
            leaseDurationSeconds: durationSeconds,
            renewTime: now,
            acquireTime: isOurs ? spec.acquireTime : now,
            leaseTransitions: isOurs ? transitions : transitions + 1,
          },
        },
      }),
    )
  }

  /** Runs a Lease write; a 409 means another candidate wrote first. */
  private async write(update: () => Promise<k8s.V1Lease>): Promise<boolean> {
    try {
      const written = await update()
      this.observedRecord = `${written.spec?.holderIdentity ?? ''}|${written.metadata?.resourceVersion ?? ''}`
      this.observedAt = Date.now()
      return true
    } catch (error) {
      if (isConflict(error)) return false
      throw error
    }
  }

  private async release(): Promise<void> {
    const { name, namespace, identity } = this.options
    const lease = await this.coordination.readNamespacedLease({ name, namespace })
    if (lease.spec?.holderIdentity !== identity) return
    const now = new k8s.V1MicroTime(Date.now())
    await this.coordination.replaceNamespacedLease({
      name,
      namespace,
      body: { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now } },
    })
  }
}
