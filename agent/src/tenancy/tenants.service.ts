import { type AgentContext, type ModulesMap, type Repository, UpdateAssistant } from '@credo-ts/core'
import { NotFoundError } from '@idplane/common'

import { TenantAgent } from './tenant-agent'
import type { TenantRouting } from './tenant-routing'
import type { TenantSessionCoordinator } from './tenant-session-coordinator'
import { type TenantConfig, TenantRecord } from './tenant.record'

export interface TenantSession<AgentModules extends ModulesMap> {
  tenant: TenantRecord
  agent: TenantAgent<AgentModules>
  /** Ends the session; the agent must not be used afterwards. */
  end(): Promise<void>
}

export interface TenantsServiceDeps {
  rootContext: () => AgentContext
  repository: () => Repository<TenantRecord>
  coordinator: TenantSessionCoordinator
  routing: TenantRouting
}

/** Creates, finds and deletes tenants of the base wallet and opens sessions on them. */
export class TenantsService {
  public constructor(private readonly deps: TenantsServiceDeps) {}

  public async create(config: TenantConfig): Promise<TenantRecord> {
    const { coordinator } = this.deps
    const record = new TenantRecord({ config, storageVersion: UpdateAssistant.frameworkStorageVersion })
    await this.deps.repository().save(this.deps.rootContext(), record)
    await coordinator.release(await coordinator.acquire(record.id, { provision: true }))
    return record
  }

  public async list(): Promise<TenantRecord[]> {
    return this.deps.repository().getAll(this.deps.rootContext())
  }

  /** @throws {NotFoundError} for an unknown tenant */
  public async get(tenantId: string): Promise<TenantRecord> {
    const record = await this.deps.repository().findById(this.deps.rootContext(), tenantId)
    if (!record) throw new NotFoundError('Tenant not found')
    return record
  }

  /**
   * Removes the tenant: its records and keys (through its context's delete hooks), its recipient keys, then its
   * record. Sessions still running on it fail from then on.
   * @throws {NotFoundError} for an unknown tenant
   */
  public async delete(tenantId: string): Promise<void> {
    const record = await this.get(tenantId)
    await this.deps.coordinator.delete(tenantId)
    await this.deps.routing.removeTenant(tenantId)
    await this.deps.repository().delete(this.deps.rootContext(), record)
  }

  /** @throws {NotFoundError} for an unknown tenant */
  public async openSession<AgentModules extends ModulesMap>(tenantId: string): Promise<TenantSession<AgentModules>> {
    const tenant = await this.get(tenantId)
    const context = await this.deps.coordinator.acquire(tenantId)
    let ended = false
    return {
      tenant,
      agent: new TenantAgent<AgentModules>(context),
      end: async () => {
        if (ended) return
        ended = true
        await this.deps.coordinator.release(context)
      },
    }
  }

  /**
   * Routes messages for a key the tenant made outside Credo's routing (a DID created through the admin API).
   * @throws {ConflictError} when another tenant owns the key
   */
  public async claimRecipientKey(tenantId: string, recipientKeyFingerprint: string): Promise<void> {
    await this.deps.routing.register(tenantId, recipientKeyFingerprint)
  }
}
