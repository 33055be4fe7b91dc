import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { UserRolesController } from './user-roles.controller'
import { UserRolesService } from './user-roles.service'

/** Replacing a member's roles in an organization (spec: `PUT /orgs/:orgId/user-roles/:userId`). */
export const userRolesModule: ApiModule = {
  name: 'user-roles',
  controllers: [UserRolesController],
  bindings: new ContainerModule(({ bind }) => {
    bind(UserRolesService).toSelf().inSingletonScope()
    bind(UserRolesController).toSelf().inSingletonScope()
  }),
}
