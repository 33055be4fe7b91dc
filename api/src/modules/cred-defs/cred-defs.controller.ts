import { injectable } from 'inversify'
import { Authorized, Body, Get, HttpCode, JsonController, Param, Params, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { pageOf } from '../../infra/http/data-schema'
import { CurrentOrgCaller, type OrgCaller } from '../memberships/org-caller.decorator'
import { ORG_ROLES } from '../memberships/org-roles'
import { CredDefsService } from './cred-defs.service'
import { CRED_DEF_SCHEMA, toCredDefResponse, type CredDefResponse } from './dto/cred-def.response'
import { CreateCredDefDto, CredDefPathParams, ListCredDefsQuery } from './dto/cred-defs.dto'

@injectable()
@JsonController('/v1/orgs/:orgId/cred-defs')
@OpenAPI({ tags: ['Credential definitions'] })
export class CredDefsController {
  public constructor(private readonly credDefs: CredDefsService) {}

  @Post()
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({
    summary:
      'Create an INDY credential definition. Answers at once with the record (status creating); a queued job ' +
      'generates the keys and registers it (status created, credentialDefinitionId set, or failed with error). ' +
      'With revocable true the keys support revocation and the job also creates its first revocation registry ' +
      '(REVOCATION_REGISTRY_SIZE entries); the definition is created only once the registry is on the ledger',
  })
  @ResponseData(CRED_DEF_SCHEMA, { errors: [409, 502] })
  async create(
    @Param('orgId') orgId: string,
    @CurrentOrgCaller() caller: OrgCaller,
    @Body({ required: true }) body: CreateCredDefDto,
  ): Promise<Envelope<CredDefResponse>> {
    const definition = await this.credDefs.create(orgId, caller, body)
    return created(toCredDefResponse(definition), 'Credential definition creation started')
  }

  @Get()
  @Authorized(ORG_ROLES.members)
  @OpenAPI({
    summary:
      "The organization's credential definitions, paginated; revocable (default true) shows only revocable ones, " +
      'false every one; searchByText matches tags and schema ids',
  })
  @ResponseData(pageOf(CRED_DEF_SCHEMA))
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListCredDefsQuery,
  ): Promise<Envelope<Page<CredDefResponse>>> {
    const [definitions, total] = await this.credDefs.list(orgId, {
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      searchByText: query.searchByText,
      sortField: query.sorting,
      sortBy: query.sortByValue,
      onlyRevocable: query.revocable,
    })
    return ok(toPage(definitions.map(toCredDefResponse), total, query), 'Credential definitions fetched')
  }

  @Get('/:credDefId')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: 'One credential definition by ledger id (URL-encoded) or by record id' })
  @ResponseData(CRED_DEF_SCHEMA)
  async get(@Params() params: CredDefPathParams): Promise<Envelope<CredDefResponse>> {
    const definition = await this.credDefs.get(params.orgId, params.credDefId)
    return ok(toCredDefResponse(definition), 'Credential definition fetched')
  }
}
