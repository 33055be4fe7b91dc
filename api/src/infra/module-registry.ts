import { AsyncLocalStorage } from 'node:async_hooks'
import type { Container } from 'inversify'
import type { AnyEntity, EntityClass } from '@mikro-orm/core'
import type { ActivityCounts, ApiModule, AppliedAgentEvent, DashboardEntries } from './api-module'
import type { Config } from './config'
import type { ConfigSection } from './config-section'
import type { DeprecatedAlias } from './http/deprecated-aliases'
import type { PlatformEvent } from './platform-events'
import type { RetentionTask } from './retention/retention-pruner'

/** Every module's entities, once each, for the ORM configuration. */
export function entitiesOf(modules: readonly ApiModule[]): EntityClass<AnyEntity>[] {
  return [...new Set(modules.flatMap((module) => module.entities ?? []))]
}

/** Every module's configuration section, for loadConfig. */
export function configSectionsOf(modules: readonly ApiModule[]): ConfigSection[] {
  return modules.flatMap((module) => (module.config ? [module.config] : []))
}

/** Every module's deprecated path prefixes, for the alias middleware installed before the routes. */
export function deprecatedAliasesOf(modules: readonly ApiModule[]): DeprecatedAlias[] {
  return modules.flatMap((module) => module.deprecatedAliases ?? [])
}

/** The modules whose routes are served under this configuration (ApiModule.isMounted), in module order. */
export function mountedModules(modules: readonly ApiModule[], config: Config): ApiModule[] {
  return modules.filter((module) => module.isMounted?.(config) ?? true)
}

/** Every module's controllers, in module order (the order routes are registered in). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function controllersOf(modules: readonly ApiModule[]): Function[] {
  return modules.flatMap((module) => module.controllers)
}

/** Events held by one publishingTogether; closed once its work has ended. */
interface HeldEvents {
  events: PlatformEvent[]
  isOpen: boolean
}

/**
 * The loaded modules, seen from the platform: starts and stops them, dispatches agent events to their
 * handlers, gathers their counts and calls their organization-deletion hooks. Bound in the container by
 * container.ts; modules inject it, never each other's internals, for these cross-module concerns.
 */
export class ModuleRegistry {
  private readonly handledKinds: ReadonlySet<string>
  /** The events published inside publishingTogether, per call (concurrent batches keep their own). */
  private readonly held = new AsyncLocalStorage<HeldEvents>()

  public constructor(
    private readonly modules: readonly ApiModule[],
    private readonly container: Container,
  ) {
    const kinds = new Set<string>()
    for (const module of modules) {
      for (const { kind } of module.agentEventHandlers ?? []) kinds.add(kind)
    }
    this.handledKinds = kinds
  }

  /** Starts the modules in order; when one fails, those already started are stopped again. */
  public async start(): Promise<void> {
    const started: ApiModule[] = []
    try {
      for (const module of this.modules) {
        await module.start?.(this.container)
        started.push(module)
      }
    } catch (error) {
      await this.stopAll(started.reverse())
      throw error
    }
  }

  /**
   * Stops every module in reverse order, started or not (requests may have begun background work too).
   * Every module is asked even when one fails; the first failure is thrown afterwards.
   */
  public async stop(): Promise<void> {
    await this.stopAll([...this.modules].reverse())
  }

  /** Whether any module handles agent events of `kind`. */
  public handles(kind: string): boolean {
    return this.handledKinds.has(kind)
  }

  /** Applies an agent event with the handlers of every module declaring its kind, in module order. */
  public async dispatch(orgId: string, event: AppliedAgentEvent): Promise<void> {
    for (const module of this.modules) {
      for (const declared of module.agentEventHandlers ?? []) {
        if (declared.kind === event.kind) await this.container.get(declared.handler).handle(orgId, event)
      }
    }
  }

  /**
   * Hands platform events to every module's listeners, in module order. Call it inside the transaction that made
   * the change the events announce: a listener that throws rolls the change back. Inside publishingTogether the
   * events are held and handed over when its work ends.
   */
  public async publish(events: readonly PlatformEvent[]): Promise<void> {
    if (events.length === 0) return
    const held = this.held.getStore()
    if (held?.isOpen) {
      held.events.push(...events)
      return
    }
    await this.handOver(events)
  }

  /**
   * Runs `work` (inside the caller's transaction) holding what it publishes, then hands all of it to the listeners
   * at once, in publishing order: a batch of agent events stores its webhook deliveries in one statement, not one
   * per event. Nothing is handed over when `work` throws (its transaction rolls back). Work that `work` started and
   * did not await publishes directly once `work` has ended. What `work` publishes joins the caller's transaction:
   * work that publishes in a transaction of its own (a repository's `inOwnContext`) does not belong inside it (no
   * agent event handler does).
   */
  public async publishingTogether<T>(work: () => Promise<T>): Promise<T> {
    const held: HeldEvents = { events: [], isOpen: true }
    let result: T
    try {
      result = await this.held.run(held, work)
    } finally {
      held.isOpen = false
    }
    await this.handOver(held.events)
    return result
  }

  private async handOver(events: readonly PlatformEvent[]): Promise<void> {
    if (events.length === 0) return
    for (const module of this.modules) {
      for (const listener of module.platformEventListeners ?? []) await this.container.get(listener).onEvents(events)
    }
  }

  /**
   * Every module's counts for the organization, side by side.
   * @throws Error when two modules contribute the same name (a programming error)
   */
  public async countsFor(orgId: string): Promise<ActivityCounts> {
    const merged: ActivityCounts = {}
    for (const { module, counts } of await this.countEach(orgId)) mergeInto(merged, counts, module)
    return merged
  }

  /**
   * Every module's dashboard entries for the organization, side by side.
   * @throws Error when two modules contribute the same name (a programming error)
   */
  public async dashboardFor(orgId: string): Promise<DashboardEntries> {
    const merged: DashboardEntries = {}
    for (const { module, counts, summarize } of await this.countEach(orgId)) {
      if (summarize) mergeInto(merged, summarize(counts), module)
    }
    return merged
  }

  /** Every module's retention tasks, in module order. */
  public retentionTasks(): RetentionTask[] {
    return this.modules.flatMap((module) => module.retention?.(this.container) ?? [])
  }

  /** Calls every module's deletion hook, in module order; the first that throws stops the deletion. */
  public async organizationDeleted(orgId: string): Promise<void> {
    for (const module of this.modules) await module.onOrganizationDeleted?.(this.container, orgId)
  }

  private async countEach(orgId: string) {
    const results = []
    for (const module of this.modules) {
      if (module.counter === undefined) continue
      const counter = this.container.get(module.counter)
      const counts = await counter.count(orgId)
      results.push({ module: module.name, counts, summarize: counter.summarize?.bind(counter) })
    }
    return results
  }

  private async stopAll(modules: readonly ApiModule[]): Promise<void> {
    let failure: unknown
    for (const module of modules) {
      try {
        await module.stop?.(this.container)
      } catch (error) {
        failure ??= error
      }
    }
    if (failure !== undefined) throw failure
  }
}

function mergeInto<T extends object>(target: T, entries: T, module: string): void {
  for (const [name, value] of Object.entries(entries)) {
    if (name in target) throw new Error(`Module ${module} contributes the count "${name}" a module before it did`)
    Object.assign(target, { [name]: value })
  }
}
