import { injectable } from 'inversify'
import { Authorized, Body, JsonController, Params, Put } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { done, type Envelope } from '../../infra/http/envelope'
import { UserRolesParams } from './dto/user-roles.params'
import { ReplaceUserRolesDto } from './dto/replace-user-roles.dto'
import { UserRolesService } from './user-roles.service'
import { CurrentOrgCaller, type OrgCaller } from '../memberships/org-caller.decorator'
import { ORG_ROLES } from '../memberships/org-roles'
import { ResponseData } from '../../infra/http/response-doc'
import { messageOnly } from '../../infra/http/data-schema'

@injectable()
@JsonController('/v1/orgs/:orgId/user-roles')
@OpenAPI({ tags: ['Invitations and membership'] })
export class UserRolesController {
  public constructor(private readonly userRoles: UserRolesService) {}

  @Put('/:userId')
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: "Replace all of a member's roles in the organization" })
  @ResponseData(messageOnly, { errors: [409] })
  async replace(
    @Params() params: UserRolesParams,
    @CurrentOrgCaller() caller: OrgCaller,
    @Body({ required: true }) body: ReplaceUserRolesDto,
  ): Promise<Envelope<never>> {
    await this.userRoles.replace(params.orgId, caller, params.userId, body.orgRoleId)
    return done('User roles updated')
  }
}
