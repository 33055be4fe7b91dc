import { injectable } from 'inversify'
import { Authorized, Body, Get, HttpCode, JsonController, Param, Put } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { ORG_ROLES } from '../memberships/org-roles'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { OrgDidsService } from './org-dids.service'
import { SetPrimaryDidDto } from './dto/set-primary-did.dto'
import { toOrgDidResponse, type OrgDidResponse } from './dto/org-did.response'
import { ResponseData } from '../../infra/http/response-doc'
import { arrayOf } from '../../infra/http/data-schema'
import { ORG_DID_SCHEMA } from './dto/org-did.response'

/** An organization's DIDs and its primary DID (spec: Organizations). */
@injectable()
@JsonController('/v1/orgs/:orgId')
@OpenAPI({ tags: ['Organizations'] })
export class OrgDidsController {
  public constructor(private readonly dids: OrgDidsService) {}

  @Get('/dids')
  @Authorized(ORG_ROLES.didReaders)
  @ResponseData(arrayOf(ORG_DID_SCHEMA))
  async list(@Param('orgId') orgId: string): Promise<Envelope<OrgDidResponse[]>> {
    return ok((await this.dids.list(orgId)).map(toOrgDidResponse), 'DIDs fetched')
  }

  /** Spec: response status 201. */
  @Put('/primary-did')
  @HttpCode(201)
  @Authorized(ORG_ROLES.members)
  @ResponseData(ORG_DID_SCHEMA)
  async setPrimary(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: SetPrimaryDidDto,
  ): Promise<Envelope<OrgDidResponse>> {
    return created(toOrgDidResponse(await this.dids.setPrimary(orgId, body.id, body.did)), 'Primary DID set')
  }
}
