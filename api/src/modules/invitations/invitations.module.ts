import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { InvitationsController } from './invitations.controller'
import { InvitationsRepository } from './invitations.repository'
import { InvitationsService } from './invitations.service'
import { UserInvitationsController } from './user-invitations.controller'
import { UserInvitationsService } from './user-invitations.service'
import { Invitation } from './invitation.entity'
import { InvitationsCounter } from './invitations.counter'

/**
 * Invitations (spec: Invitations and membership, and the two `/users/invitations` routes); accepting one grants
 * roles through the memberships module.
 */
export const invitationsModule: ApiModule = {
  name: 'invitations',
  controllers: [InvitationsController, UserInvitationsController],
  entities: [Invitation],
  counter: InvitationsCounter,
  bindings: new ContainerModule(({ bind }) => {
    bind(InvitationsRepository).toSelf().inSingletonScope()
    bind(InvitationsService).toSelf().inSingletonScope()
    bind(UserInvitationsService).toSelf().inSingletonScope()
    bind(InvitationsCounter).toSelf().inSingletonScope()
    bind(InvitationsController).toSelf().inSingletonScope()
    bind(UserInvitationsController).toSelf().inSingletonScope()
  }),
}
