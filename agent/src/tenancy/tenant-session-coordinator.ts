import { AgentConfig, AgentContext, CredoError } from '@credo-ts/core'

const TENANT_PREFIX = 'tenant-'

export function contextIdForTenant(tenantId: string): string {
  return `${TENANT_PREFIX}${tenantId}`
}

/** The tenant id of a tenant context id, or undefined for any other context (the base wallet). */
export function tenantIdOfContext(contextCorrelationId: string): string | undefined {
  return contextCorrelationId.startsWith(TENANT_PREFIX) ? contextCorrelationId.slice(TENANT_PREFIX.length) : undefined
}

interface OpenTenant {
  context: AgentContext
  sessions: number
}

export interface TenantSessionCoordinatorOptions {
  /** Idle tenant contexts kept open for reuse; beyond this the least recently used idle one is closed. */
  maxIdleContexts: number
  /** @throws when the tenant does not exist; called before a context is opened for it */
  assertTenantExists(tenantId: string): Promise<void>
}

/**
 * Opens and closes tenant agent contexts (model: Credo's TenantSessionCoordinator). Each tenant context is a child
 * of the base dependency manager with contextCorrelationId `tenant-<id>`; storage and keys are separated by that id.
 * Every `acquire` is a session that `release` ends. Unlike Credo's coordinator, a context whose last session ended
 * stays open (up to `maxIdleContexts`), because opening one costs a child container and module hooks per message.
 */
export class TenantSessionCoordinator {
  private readonly open = new Map<string, OpenTenant>()
  private readonly opening = new Map<string, Promise<OpenTenant>>()

  public constructor(
    private readonly rootContext: () => AgentContext,
    private readonly options: TenantSessionCoordinatorOptions,
  ) {}

  /** Starts a session: the tenant's context, opened (and provisioned, for a new tenant) when not open yet. */
  public async acquire(tenantId: string, { provision = false }: { provision?: boolean } = {}): Promise<AgentContext> {
    const entry = this.open.get(tenantId) ?? (await this.openTenant(tenantId, provision))
    entry.sessions++
    // Map order is recency order: the first idle entries are the ones to close.
    this.open.delete(tenantId)
    this.open.set(tenantId, entry)
    return entry.context
  }

  public async release(context: AgentContext): Promise<void> {
    const tenantId = tenantIdOfContext(context.contextCorrelationId)
    const entry = tenantId === undefined ? undefined : this.open.get(tenantId)
    if (!entry || entry.context !== context) return
    entry.sessions = Math.max(0, entry.sessions - 1)
    await this.closeIdleBeyondLimit()
  }

  /** Deletes the tenant's context data through Credo's module hooks (our adapters drop its records and keys). */
  public async delete(tenantId: string): Promise<void> {
    await this.opening.get(tenantId)?.catch(() => undefined)
    const entry = this.open.get(tenantId)
    this.open.delete(tenantId)
    const context = entry?.context ?? (await this.createContext(tenantId, false))
    await context.dependencyManager.deleteAgentContext(context)
  }

  public async closeAll(): Promise<void> {
    const entries = [...this.open.values()]
    this.open.clear()
    for (const entry of entries) await entry.context.dependencyManager.closeAgentContext(entry.context)
  }

  public get openCount(): number {
    return this.open.size
  }

  private openTenant(tenantId: string, provision: boolean): Promise<OpenTenant> {
    const pending = this.opening.get(tenantId)
    if (pending) return pending
    const opened = (async () => {
      await this.options.assertTenantExists(tenantId)
      const entry = { context: await this.createContext(tenantId, provision), sessions: 0 }
      this.open.set(tenantId, entry)
      return entry
    })().finally(() => this.opening.delete(tenantId))
    this.opening.set(tenantId, opened)
    return opened
  }

  private async createContext(tenantId: string, provision: boolean): Promise<AgentContext> {
    const root = this.rootContext()
    const dependencyManager = root.dependencyManager.createChild()
    const context = new AgentContext({
      contextCorrelationId: contextIdForTenant(tenantId),
      dependencyManager,
      isRootAgentContext: false,
    })
    dependencyManager.registerInstance(AgentContext, context)
    dependencyManager.registerInstance(AgentConfig, root.config.extend({}))
    try {
      if (provision) await dependencyManager.provisionAgentContext(context)
      await dependencyManager.initializeAgentContext(context)
    } catch (error) {
      await dependencyManager.closeAgentContext(context).catch(() => undefined)
      throw new CredoError(`Could not open the context of tenant ${tenantId}`, { cause: asError(error) })
    }
    return context
  }

  private async closeIdleBeyondLimit(): Promise<void> {
    let idle = 0
    for (const entry of this.open.values()) if (entry.sessions === 0) idle++
    for (const [tenantId, entry] of this.open) {
      if (idle <= this.options.maxIdleContexts) return
      if (entry.sessions !== 0) continue
      this.open.delete(tenantId)
      idle--
      await entry.context.dependencyManager.closeAgentContext(entry.context)
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
