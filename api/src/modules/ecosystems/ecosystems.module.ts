import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { Ecosystem } from './ecosystem.entity'
import { EcosystemOrg } from './ecosystem-org.entity'
import { EcosystemAccess } from './ecosystem-access'
import { EcosystemFeatureGate } from './ecosystem-feature.gate'
import { ecosystemInvitationPages } from './ecosystem-invitation.page'
import { EcosystemInvitationsService } from './ecosystem-invitations.service'
import { EcosystemMembersService } from './ecosystem-members.service'
import { ecosystemsConfig } from './ecosystems.config'
import { EcosystemsController } from './ecosystems.controller'
import { EcosystemsRepository } from './ecosystems.repository'
import { EcosystemsService } from './ecosystems.service'

/**
 * Ecosystems (spec: Ecosystems), behind the ECOSYSTEM_ENABLED flag: a lead organization invites others, which
 * accept or reject; the lead manages its members. Invitations and status changes are `ecosystem.*` platform
 * events for each affected organization; invitation mails go to the invited organization's owners.
 */
export const ecosystemsModule: ApiModule = {
  name: 'ecosystems',
  controllers: [EcosystemsController],
  entities: [Ecosystem, EcosystemOrg],
  config: ecosystemsConfig,
  router: ecosystemInvitationPages,
  bindings: new ContainerModule(({ bind }) => {
    bind(EcosystemsRepository).toSelf().inSingletonScope()
    bind(EcosystemAccess).toSelf().inSingletonScope()
    bind(EcosystemsService).toSelf().inSingletonScope()
    bind(EcosystemInvitationsService).toSelf().inSingletonScope()
    bind(EcosystemMembersService).toSelf().inSingletonScope()
    bind(EcosystemFeatureGate).toSelf().inSingletonScope()
    bind(EcosystemsController).toSelf().inSingletonScope()
  }),
}
