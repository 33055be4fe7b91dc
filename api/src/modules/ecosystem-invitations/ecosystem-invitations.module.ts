import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { ecosystemInvitationPages } from './ecosystem-invitation.page'
import { EcosystemInvitationsController } from './ecosystem-invitations.controller'
import { EcosystemInvitationsRepository } from './ecosystem-invitations.repository'
import { EcosystemInvitationsService } from './ecosystem-invitations.service'

/**
 * Ecosystem invitations (spec: Ecosystems, `/ecosystem/invitation*`): an ecosystem lead invites an organization,
 * whose owners are mailed, and the organization accepts or rejects. An invitation is an EcosystemMembership row
 * of the ecosystems module in its PENDING state (docs/decisions.md, "Ecosystem invitations and members").
 */
export const ecosystemInvitationsModule: ApiModule = {
  name: 'ecosystem-invitations',
  controllers: [EcosystemInvitationsController],
  router: ecosystemInvitationPages,
  bindings: new ContainerModule(({ bind }) => {
    bind(EcosystemInvitationsRepository).toSelf().inSingletonScope()
    bind(EcosystemInvitationsService).toSelf().inSingletonScope()
    bind(EcosystemInvitationsController).toSelf().inSingletonScope()
  }),
}
