import { type AgentContext, type DependencyManager, InjectionSymbols, Kms, type Module } from '@credo-ts/core'

import { EncryptedKeyStorage } from './kms/encrypted-key-storage'
import { IdplaneKeyManagementService } from './kms/idplane-key-management.service'
import type { SqlClient } from './sql/sql-client'
import { MirroredStorageService } from './storage/mirrored-storage.service'
import type { RecordMirrorLimits } from './storage/record-mirror'
import type { ContextStorage } from './storage/row-storage'
import { SqlStorageService, type SqlStorageOptions } from './storage/sql-storage.service'

export interface StorageOptions extends SqlStorageOptions {
  /** Bounds of the in-memory mirror in front of the SQL store; `false` sends every read to the database. */
  mirror?: RecordMirrorLimits | false
}

/**
 * Plugs our two adapters into Credo, the way AskarModule does for Askar: the SQL storage service (behind the
 * record mirror unless it is turned off) and the key-management backend. Registering a second storage service would silently split records, so a second
 * registration is refused. Deleting an agent context (a tenant) drops its records and keys.
 */
export class IdplaneAdaptersModule implements Module {
  public readonly storage: ContextStorage<never>
  public readonly keyManagement: IdplaneKeyManagementService

  public constructor(
    sql: SqlClient,
    public readonly keys: EncryptedKeyStorage,
    storageOptions: StorageOptions = {},
  ) {
    const store = new SqlStorageService<never>(sql, { events: storageOptions.events })
    this.storage = storageOptions.mirror === false ? store : new MirroredStorageService(store, storageOptions.mirror)
    this.keyManagement = new IdplaneKeyManagementService(keys)
  }

  public register(dependencyManager: DependencyManager): void {
    if (dependencyManager.isRegistered(InjectionSymbols.StorageService)) {
      throw new Error('A storage service is already registered; IdplaneAdaptersModule must be the only one')
    }
    dependencyManager.registerInstance(InjectionSymbols.StorageService, this.storage)
    dependencyManager.resolve(Kms.KeyManagementModuleConfig).registerBackend(this.keyManagement)
  }

  public async onDeleteContext(agentContext: AgentContext): Promise<void> {
    await this.storage.deleteContext(agentContext.contextCorrelationId)
    await this.keys.deleteContext(agentContext.contextCorrelationId)
  }
}
