import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { BaseWallet } from './base-wallet.entity'
import { BaseWalletService } from './base-wallet.service'
import { CloudWallet } from './cloud-wallet.entity'
import { CloudWalletController } from './cloud-wallet.controller'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { CloudWalletsService } from './cloud-wallets.service'
import { cloudWalletConfig } from './cloud-wallet.config'
import { CLOUD_WALLET_METRICS, CloudWalletMetrics } from './cloud-wallet-metrics'
import { ManagedBaseAgent } from './managed-base-agent'

/**
 * The holder cloud wallet (spec: Cloud wallet): one multi-tenant base agent (configured by a platform admin, or the
 * platform's own, CLOUD_WALLET_BASE_AGENT), each signed-in user gets one tenant of it, and every wallet route acts
 * only as the caller's tenant.
 */
export const cloudWalletModule: ApiModule = {
  name: 'cloud-wallet',
  controllers: [CloudWalletController],
  entities: [BaseWallet, CloudWallet],
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
    bind(CloudWalletsService).toSelf().inSingletonScope()
    bind(CloudWalletController).toSelf().inSingletonScope()
  }),
}
