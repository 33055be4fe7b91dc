import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { proofsConfig } from './proofs.config'
import { ProofRecords } from './proof-records'
import { ProofMetrics } from './proof-metrics'
import { ProofRecord } from './proof.entity'
import { ProofsRepository } from './proofs.repository'
import { ProofsController, ProofsV2Controller } from './proofs.controller'
import { ProofsService } from './proofs.service'

/**
 * Verification (spec: Verification): DIF Presentation Exchange proof requests over connections (v1, and v2 to
 * several) and out of band, verification, the organization's proof records kept from its agent's `proof` events.
 */
export const proofsModule: ApiModule = {
  name: 'proofs',
  config: proofsConfig,
  controllers: [ProofsController, ProofsV2Controller],
  entities: [ProofRecord],
  agentEventHandlers: [{ kind: 'proof', handler: ProofRecords }],
  bindings: new ContainerModule(({ bind }) => {
    bind(ProofsRepository).toSelf().inSingletonScope()
    bind(ProofsService).toSelf().inSingletonScope()
    bind(ProofRecords).toSelf().inSingletonScope()
    bind(ProofMetrics)
      .toDynamicValue((context) => new ProofMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
    bind(ProofsController).toSelf().inSingletonScope()
    bind(ProofsV2Controller).toSelf().inSingletonScope()
  }),
}
