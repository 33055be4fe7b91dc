import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { BaseWallet } from './base-wallet.entity'
import { BaseWalletService } from './base-wallet.service'
import { CloudWallet } from './cloud-wallet.entity'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { cloudWalletConfig } from './cloud-wallet.config'
import { WalletAdmission } from './wallet-admission'
import { CLOUD_WALLET_METRICS, CloudWalletMetrics } from './cloud-wallet-metrics'
import { ManagedBaseAgent } from './managed-base-agent'
import { WalletEventsController } from './wallet-events.controller'
import { WalletEventsService } from './wallet-events.service'
import { WalletRecord } from './wallet-record.entity'
import { WalletRecordMetrics } from './wallet-record-metrics'
import { WalletRecords } from './wallet-records'
import { WalletRecordsRepository } from './wallet-records.repository'
import { WalletAccess } from './wallet-access'
import { CloudWalletsController } from './wallets/cloud-wallets.controller'
import { CloudWalletsService } from './wallets/cloud-wallets.service'
import { WalletConnectionsController } from './connections/wallet-connections.controller'
import { WalletConnectionsService } from './connections/wallet-connections.service'
import { WalletCredentialsController } from './credentials/wallet-credentials.controller'
import { WalletCredentialsService } from './credentials/wallet-credentials.service'
import { WalletProofsController } from './proofs/wallet-proofs.controller'
import { WalletProofsService } from './proofs/wallet-proofs.service'
import { WalletDidsController } from './dids/wallet-dids.controller'
import { WalletDidsService } from './dids/wallet-dids.service'
import { WalletMessagesController } from './messages/wallet-messages.controller'
import { WalletMessagesService } from './messages/wallet-messages.service'

/**
 * The holder cloud wallet (spec: Cloud wallet): one multi-tenant base agent (configured by a platform admin, or the
 * platform's own, CLOUD_WALLET_BASE_AGENT), each signed-in user gets one tenant of it, and every wallet route acts
 * only as the caller's tenant. The base agent's events (BASE_WALLET_EVENTS_PATH) keep each wallet's holder records
 * and reach the tenant's webhook. The routes are split by resource (wallets, connections, credentials, proofs, dids,
 * messages: a controller and a service each); the base wallet, the wallet access rule (WalletAccess), the holder
 * records and the base agent's events are shared here.
 */
export const cloudWalletModule: ApiModule = {
  name: 'cloud-wallet',
  controllers: [
    CloudWalletsController,
    WalletConnectionsController,
    WalletCredentialsController,
    WalletProofsController,
    WalletDidsController,
    WalletMessagesController,
    WalletEventsController,
  ],
  entities: [BaseWallet, CloudWallet, WalletRecord],
  config: cloudWalletConfig,
  // A managed base agent that exists comes back with the API (in the background); a new one starts on first use.
  start: (container) => container.get(ManagedBaseAgent).resume(),
  // Before the agent runtime closes (it stops the process itself).
  stop: (container) => container.get(ManagedBaseAgent).close(),
  bindings: new ContainerModule(({ bind }) => {
    bind(CloudWalletsRepository).toSelf().inSingletonScope()
    bind(ManagedBaseAgent).toSelf().inSingletonScope()
    bind(CLOUD_WALLET_METRICS)
      .toDynamicValue((context) => {
        const wallets = context.get(CloudWalletsRepository)
        return new CloudWalletMetrics(context.get<Registry<RegistryContentType>>(Registry), () =>
          wallets.countWallets(),
        )
      })
      .inSingletonScope()
    bind(BaseWalletService).toSelf().inSingletonScope()
    bind(WalletAccess).toSelf().inSingletonScope()
    bind(WalletAdmission).toSelf().inSingletonScope()
    bind(CloudWalletsService).toSelf().inSingletonScope()
    bind(CloudWalletsController).toSelf().inSingletonScope()
    bind(WalletConnectionsService).toSelf().inSingletonScope()
    bind(WalletConnectionsController).toSelf().inSingletonScope()
    bind(WalletCredentialsService).toSelf().inSingletonScope()
    bind(WalletCredentialsController).toSelf().inSingletonScope()
    bind(WalletProofsService).toSelf().inSingletonScope()
    bind(WalletProofsController).toSelf().inSingletonScope()
    bind(WalletDidsService).toSelf().inSingletonScope()
    bind(WalletDidsController).toSelf().inSingletonScope()
    bind(WalletMessagesService).toSelf().inSingletonScope()
    bind(WalletMessagesController).toSelf().inSingletonScope()
    bind(WalletRecordsRepository).toSelf().inSingletonScope()
    bind(WalletRecords).toSelf().inSingletonScope()
    bind(WalletEventsService).toSelf().inSingletonScope()
    bind(WalletEventsController).toSelf().inSingletonScope()
    bind(WalletRecordMetrics)
      .toDynamicValue((context) => new WalletRecordMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
