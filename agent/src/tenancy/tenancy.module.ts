import {
  AgentContext,
  type DependencyManager,
  EventEmitter,
  InjectionSymbols,
  type InjectionToken,
  type Module,
  Repository,
  type StorageService,
} from '@credo-ts/core'
import { type DidCommRoutingCreatedEvent, DidCommRoutingEventTypes } from '@credo-ts/didcomm'

import { TenantContextProvider } from './tenant-context-provider'
import { TenantRouting } from './tenant-routing'
import { TenantRoutingRecord } from './tenant-routing.record'
import { RecordTenantRoutingStore } from './tenant-routing.store'
import { TenantSessionCoordinator, tenantIdOfContext } from './tenant-session-coordinator'
import { TenantRecord } from './tenant.record'
import { TenantsService } from './tenants.service'

export interface TenancyModuleOptions {
  /** @default 100 */
  maxIdleContexts?: number
}

/**
 * Base-wallet tenancy on Credo's context interfaces (model: Credo's TenantsModule, which has no 0.6 release here):
 * registers our AgentContextProvider, so inbound messages find their tenant, and records the recipient key of every
 * routing a tenant creates. `tenants` is the service the admin API uses.
 */
export class TenancyModule implements Module {
  public readonly tenants: TenantsService
  private readonly coordinator: TenantSessionCoordinator
  private readonly routing: TenantRouting
  private dependencyManager: DependencyManager | undefined

  public constructor(options: TenancyModuleOptions = {}) {
    const rootContext = () => this.resolve(AgentContext)
    const storage = () => this.resolve<StorageService<never>>(InjectionSymbols.StorageService)
    let tenantRepository: Repository<TenantRecord> | undefined
    let routingRepository: Repository<TenantRoutingRecord> | undefined
    this.routing = new TenantRouting(
      new RecordTenantRoutingStore(
        () => (routingRepository ??= new Repository(TenantRoutingRecord, storage(), this.resolve(EventEmitter))),
        rootContext,
      ),
    )
    this.coordinator = new TenantSessionCoordinator(rootContext, {
      maxIdleContexts: options.maxIdleContexts ?? 100,
      assertTenantExists: async (tenantId) => {
        await this.tenants.get(tenantId)
      },
    })
    this.tenants = new TenantsService({
      rootContext,
      repository: () => (tenantRepository ??= new Repository(TenantRecord, storage(), this.resolve(EventEmitter))),
      coordinator: this.coordinator,
      routing: this.routing,
    })
  }

  public register(dependencyManager: DependencyManager): void {
    if (dependencyManager.isRegistered(InjectionSymbols.AgentContextProvider)) {
      throw new Error('An agent context provider is already registered; TenancyModule must be the only one')
    }
    this.dependencyManager = dependencyManager
    const provider = new TenantContextProvider(() => this.resolve(AgentContext), this.coordinator, this.routing)
    dependencyManager.registerInstance(InjectionSymbols.AgentContextProvider, provider)
    dependencyManager.registerInstance(TenantsService, this.tenants)
  }

  public async initialize(rootContext: AgentContext): Promise<void> {
    const logger = rootContext.config.logger
    rootContext
      .resolve(EventEmitter)
      .on<DidCommRoutingCreatedEvent>(DidCommRoutingEventTypes.RoutingCreatedEvent, (event) => {
        const tenantId = tenantIdOfContext(event.metadata.contextCorrelationId)
        if (tenantId === undefined) return
        this.routing.registerNew(tenantId, event.payload.routing.recipientKey.fingerprint, (error) =>
          logger.error('Could not store a tenant recipient key', { tenantId, error }),
        )
      })
  }

  public async shutdown(): Promise<void> {
    await this.coordinator.closeAll()
  }

  private resolve<T>(token: InjectionToken<T>): T {
    if (!this.dependencyManager) throw new Error('TenancyModule is not registered')
    return this.dependencyManager.resolve(token)
  }
}
