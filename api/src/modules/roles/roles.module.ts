import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { RolesService } from './roles.service'

/** Shared by orgs (creator becomes owner) and invitations (acceptance, role replacement); no routes of its own. */
export const rolesModule: ApiModule = {
  name: 'roles',
  controllers: [],
  bindings: new ContainerModule(({ bind }) => {
    bind(RolesService).toSelf().inSingletonScope()
  }),
}
