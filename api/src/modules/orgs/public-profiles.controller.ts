import { injectable } from 'inversify'
import { Get, JsonController, Param, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { ok, type Envelope } from '../../infra/http/envelope'
import type { Page } from '../../infra/http/pagination'
import { OrgsService } from './orgs.service'
import { PublicProfilesQuery } from './dto/public-profiles.query'
import { toPublicProfileResponse, type PublicProfileResponse } from './dto/organization.response'
import { ResponseData } from '../../infra/http/response-doc'
import { pageOf } from '../../infra/http/data-schema'
import { PUBLIC_PROFILE_SCHEMA } from './dto/organization.response'

/**
 * Public organization profiles (no token, spec: Authentication 6). Registered before OrgsController:
 * `/v1/orgs/:orgId` would otherwise answer these static paths.
 */
@injectable()
@JsonController('/v1/orgs')
@OpenAPI({ tags: ['Organizations'] })
export class PublicProfilesController {
  public constructor(private readonly orgs: OrgsService) {}

  @Get('/public-profile')
  @ResponseData(pageOf(PUBLIC_PROFILE_SCHEMA))
  async list(@QueryParams() query: PublicProfilesQuery): Promise<Envelope<Page<PublicProfileResponse>>> {
    const page = await this.orgs.listPublic(query)
    return ok({ ...page, data: page.data.map(toPublicProfileResponse) }, 'Public organization profiles fetched')
  }

  @Get('/public-profiles/:orgSlug')
  @ResponseData(PUBLIC_PROFILE_SCHEMA)
  async get(@Param('orgSlug') slug: string): Promise<Envelope<PublicProfileResponse>> {
    return ok(toPublicProfileResponse(await this.orgs.getPublic(slug)), 'Public organization profile fetched')
  }
}
