import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { BaseWallet } from './base-wallet.entity'
import { BaseWalletService } from './base-wallet.service'
import { CloudWallet } from './cloud-wallet.entity'
import { CloudWalletController } from './cloud-wallet.controller'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { CloudWalletsService } from './cloud-wallets.service'
import { WalletEventsController } from './wallet-events.controller'
import { WalletEventsService } from './wallet-events.service'
import { WalletRecord } from './wallet-record.entity'
import { WalletRecordMetrics } from './wallet-record-metrics'
import { WalletRecords } from './wallet-records'
import { WalletRecordsRepository } from './wallet-records.repository'

/**
 * The holder cloud wallet (spec: Cloud wallet): a platform admin configures one multi-tenant base agent, each
 * signed-in user gets one tenant of it, and every wallet route acts only as the caller's tenant. The base agent's
 * events (BASE_WALLET_EVENTS_PATH) keep each wallet's holder records and reach the tenant's webhook.
 */
export const cloudWalletModule: ApiModule = {
  name: 'cloud-wallet',
  controllers: [CloudWalletController, WalletEventsController],
  entities: [BaseWallet, CloudWallet, WalletRecord],
  bindings: new ContainerModule(({ bind }) => {
    bind(CloudWalletsRepository).toSelf().inSingletonScope()
    bind(BaseWalletService).toSelf().inSingletonScope()
    bind(CloudWalletsService).toSelf().inSingletonScope()
    bind(CloudWalletController).toSelf().inSingletonScope()
    bind(WalletRecordsRepository).toSelf().inSingletonScope()
    bind(WalletRecords).toSelf().inSingletonScope()
    bind(WalletEventsService).toSelf().inSingletonScope()
    bind(WalletEventsController).toSelf().inSingletonScope()
    bind(WalletRecordMetrics)
      .toDynamicValue((context) => new WalletRecordMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
