import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { BaseWallet } from './base-wallet.entity'
import { BaseWalletService } from './base-wallet.service'
import { CloudWallet } from './cloud-wallet.entity'
import { CloudWalletController } from './cloud-wallet.controller'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { CloudWalletsService } from './cloud-wallets.service'

/**
 * The holder cloud wallet (spec: Cloud wallet): a platform admin configures one multi-tenant base agent, each
 * signed-in user gets one tenant of it, and every wallet route acts only as the caller's tenant.
 */
export const cloudWalletModule: ApiModule = {
  name: 'cloud-wallet',
  controllers: [CloudWalletController],
  entities: [BaseWallet, CloudWallet],
  bindings: new ContainerModule(({ bind }) => {
    bind(CloudWalletsRepository).toSelf().inSingletonScope()
    bind(BaseWalletService).toSelf().inSingletonScope()
    bind(CloudWalletsService).toSelf().inSingletonScope()
    bind(CloudWalletController).toSelf().inSingletonScope()
  }),
}
