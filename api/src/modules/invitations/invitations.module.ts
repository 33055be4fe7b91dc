import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { InvitationsController } from './invitations.controller'
import { InvitationsRepository } from './invitations.repository'
import { InvitationsService } from './invitations.service'
import { MemberRolesService } from './member-roles.service'
import { UserInvitationsController } from './user-invitations.controller'
import { UserInvitationsService } from './user-invitations.service'
import { UserRolesController } from './user-roles.controller'

/** Invitations and membership (spec: Invitations and membership, and the two `/users/invitations` routes). */
export const invitationsModule: ApiModule = {
  name: 'invitations',
  controllers: [InvitationsController, UserInvitationsController, UserRolesController],
  bindings: new ContainerModule(({ bind }) => {
    bind(InvitationsRepository).toSelf().inSingletonScope()
    bind(InvitationsService).toSelf().inSingletonScope()
    bind(UserInvitationsService).toSelf().inSingletonScope()
    bind(MemberRolesService).toSelf().inSingletonScope()
    bind(InvitationsController).toSelf().inSingletonScope()
    bind(UserInvitationsController).toSelf().inSingletonScope()
    bind(UserRolesController).toSelf().inSingletonScope()
  }),
}
