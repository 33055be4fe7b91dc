import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { TOKENS, type ReadinessCheck } from '../../infra/tokens'
import { WalletLedger } from '../cloud-wallet/dids/wallet-ledger'
import { DefinitionsLedger } from '../cred-defs/definitions-ledger'
import { LedgerAnchor } from './ledger-anchor.entity'
import { LedgerController } from './ledger.controller'
import { ledgerConfig } from './ledger.config'
import { LedgerHead } from './ledger-head.service'
import { LedgerMetrics } from './ledger-metrics'
import { LedgerReadsService } from './ledger-reads.service'
import { LedgerRequesters } from './ledger-requesters'
import { LedgerReferencesRepository } from './ledger-references.repository'
import { LedgerRepository } from './ledger.repository'
import { LedgerService } from './ledger.service'
import { LedgerTransaction } from './ledger-transaction.entity'
import { LedgerTrustee } from './ledger-trustee'

export { LedgerService } from './ledger.service'
export { LedgerHead } from './ledger-head.service'
export { LedgerRequesters } from './ledger-requesters'
export type { LedgerWrite } from './ledger-requests'
export type { TransactionView } from './ledger-views'

/**
 * The platform's Indy-like ledger (issues 13 and 23): append-only, hash-chained, signed and bound transactions in
 * the database, the head anchored by the trustee's signature. Other modules inject LedgerService (writeNym); agents
 * use the HTTP routes. At start the genesis is written and the anchor checked: a head that does not match it
 * refuses ledger writes (logged; `ledger: degraded` in /health/ready) while everything else keeps serving.
 */
export const ledgerModule: ApiModule = {
  name: 'ledger',
  controllers: [LedgerController],
  entities: [LedgerTransaction, LedgerAnchor],
  config: ledgerConfig,
  start: async (container) => void (await container.get(LedgerHead).checkAtStart()),
  bindings: new ContainerModule(({ bind }) => {
    bind(LedgerTrustee).toSelf().inSingletonScope()
    bind(LedgerRepository).toSelf().inSingletonScope()
    bind(LedgerReferencesRepository).toSelf().inSingletonScope()
    bind(LedgerHead).toSelf().inSingletonScope()
    bind(LedgerService).toSelf().inSingletonScope()
    bind(LedgerReadsService).toSelf().inSingletonScope()
    bind(LedgerRequesters).toSelf().inSingletonScope()
    // The cloud wallet's port: its DIDs check a did:indy network against this ledger's namespace.
    bind(WalletLedger).toService(LedgerTrustee)
    // The port of credential definitions and proof requests: both id forms and schema sequence numbers.
    bind(DefinitionsLedger).toService(LedgerReadsService)
    bind(LedgerController).toSelf().inSingletonScope()
    bind(LedgerMetrics)
      .toDynamicValue((context) => new LedgerMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
    bind<ReadinessCheck>(TOKENS.ReadinessChecks)
      .toDynamicValue((context) => ledgerReadiness(context.get(LedgerHead)))
      .inSingletonScope()
  }),
}

/** `ledger` in /health/ready: `up`, or `degraded: <why>` while writes are refused; never makes the API unready. */
function ledgerReadiness(head: LedgerHead): ReadinessCheck {
  let problem: string | undefined
  return {
    name: 'ledger',
    isRequired: false,
    isHealthy: async () => {
      const check = await head.anchorStatus()
      problem = check.isValid ? undefined : `writes refused, ${check.reason ?? 'the anchor does not verify'}`
      return check.isValid
    },
    detail: () => problem,
  }
}
