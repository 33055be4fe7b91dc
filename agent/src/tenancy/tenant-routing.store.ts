import { type AgentContext, RecordDuplicateError, type Repository } from '@credo-ts/core'
import { ConflictError } from '@idplane/common'

import type { TenantRoutingStore } from './tenant-routing'
import { TenantRoutingRecord } from './tenant-routing.record'

/** The routing map as TenantRoutingRecords in the base context. */
export class RecordTenantRoutingStore implements TenantRoutingStore {
  public constructor(
    private readonly repository: () => Repository<TenantRoutingRecord>,
    private readonly rootContext: () => AgentContext,
  ) {}

  public async save(recipientKeyFingerprint: string, tenantId: string): Promise<void> {
    try {
      await this.repository().save(this.rootContext(), new TenantRoutingRecord({ recipientKeyFingerprint, tenantId }))
    } catch (error) {
      if (error instanceof RecordDuplicateError)
        throw new ConflictError('The key belongs to a tenant', { cause: error })
      throw error
    }
  }

  public async find(recipientKeyFingerprint: string): Promise<string | undefined> {
    return (await this.repository().findById(this.rootContext(), recipientKeyFingerprint))?.tenantId
  }

  public async deleteTenant(tenantId: string): Promise<void> {
    const repository = this.repository()
    const root = this.rootContext()
    for (const record of await repository.findByQuery(root, { tenantId })) await repository.delete(root, record)
  }
}
