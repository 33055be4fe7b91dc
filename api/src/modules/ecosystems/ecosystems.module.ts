import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { Ecosystem } from './ecosystem.entity'
import { EcosystemMembership } from './ecosystem-membership.entity'
import { EcosystemAccess } from './ecosystem-access'
import { EcosystemFeatureGate } from './ecosystem-feature.gate'
import { ecosystemsConfig } from './ecosystems.config'
import { EcosystemsController } from './ecosystems.controller'
import { EcosystemsRepository } from './ecosystems.repository'
import { EcosystemsService } from './ecosystems.service'

/**
 * Ecosystems (spec: Ecosystems), behind the ECOSYSTEM_ENABLED flag: creating one (the organization becomes its
 * lead), listing an organization's ecosystems and its dashboard. Owns what the ecosystem-invitations and
 * ecosystem-members modules share: the Ecosystem and EcosystemMembership entities, the membership state table,
 * the access rules, the feature gate and the `ecosystem.*` platform events.
 */
export const ecosystemsModule: ApiModule = {
  name: 'ecosystems',
  controllers: [EcosystemsController],
  entities: [Ecosystem, EcosystemMembership],
  config: ecosystemsConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(EcosystemsRepository).toSelf().inSingletonScope()
    bind(EcosystemAccess).toSelf().inSingletonScope()
    bind(EcosystemsService).toSelf().inSingletonScope()
    bind(EcosystemFeatureGate).toSelf().inSingletonScope()
    bind(EcosystemsController).toSelf().inSingletonScope()
  }),
}
