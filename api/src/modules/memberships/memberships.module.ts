import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { OrgRoleLookup } from '../../infra/auth/org-role-lookup'
import { OrgRole } from './org-role.entity'
import { UserOrgRole } from './user-org-role.entity'
import { MembershipsRepository } from './memberships.repository'
import { MembershipsService } from './memberships.service'
import { MembershipsCounter } from './memberships.counter'
import { MemberRoleLookup } from './member-role-lookup'
import { PlatformAdmins } from './platform-admins'
import { platformAdminsConfig } from './platform-admins.config'

/**
 * Role definitions and user-organization roles; also the role lookup behind `@Authorized(roles)`, the
 * organization lock and the owner count (the user-roles route is the user-roles module's). Orgs (the creator becomes owner) and
 * invitations (acceptance) grant roles through MembershipsService. PlatformAdmins says who is a platform admin.
 */
export const membershipsModule: ApiModule = {
  name: 'memberships',
  controllers: [],
  entities: [OrgRole, UserOrgRole],
  counter: MembershipsCounter,
  config: platformAdminsConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(MembershipsRepository).toSelf().inSingletonScope()
    bind(MembershipsService).toSelf().inSingletonScope()
    bind(MembershipsCounter).toSelf().inSingletonScope()
    bind(MemberRoleLookup).toSelf().inSingletonScope()
    bind(OrgRoleLookup).toService(MemberRoleLookup)
    bind(PlatformAdmins).toSelf().inSingletonScope()
  }),
}
