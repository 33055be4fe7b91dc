import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { WalletLedger } from '../cloud-wallet/dids/wallet-ledger'
import { LedgerController } from './ledger.controller'
import { ledgerConfig } from './ledger.config'
import { LedgerMetrics } from './ledger-metrics'
import { LedgerRepository } from './ledger.repository'
import { LedgerService } from './ledger.service'
import { LedgerTransaction } from './ledger-transaction.entity'

export { LedgerService } from './ledger.service'
export type { LedgerWrite, TransactionView } from './ledger.service'

/**
 * The platform's Indy-like ledger (issue 13): append-only, hash-chained, signed transactions in the database.
 * Other modules inject LedgerService (writeNym, append); agents use the HTTP routes. Genesis is written at start
 * (and at first use when started without workers).
 */
export const ledgerModule: ApiModule = {
  name: 'ledger',
  controllers: [LedgerController],
  entities: [LedgerTransaction],
  config: ledgerConfig,
  start: async (container) => void (await container.get(LedgerService).ensureGenesis()),
  bindings: new ContainerModule(({ bind }) => {
    bind(LedgerRepository).toSelf().inSingletonScope()
    bind(LedgerService).toSelf().inSingletonScope()
    // The cloud wallet's port: its DIDs check a did:indy network against this ledger's namespace.
    bind(WalletLedger).toService(LedgerService)
    bind(LedgerController).toSelf().inSingletonScope()
    bind(LedgerMetrics)
      .toDynamicValue((context) => new LedgerMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
