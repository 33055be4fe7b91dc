import { injectable } from 'inversify'
import { Authorized, Get, JsonController, Params, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { pageOf } from '../../infra/http/data-schema'
import { ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { ORG_ROLES } from '../memberships/org-roles'
import { SchemaPathParams } from '../schemas/dto/schema-path.params'
import { SchemasService } from '../schemas/schemas.service'
import { CredDefsService } from './cred-defs.service'
import { CRED_DEF_SCHEMA, toCredDefResponse, type CredDefResponse } from './dto/cred-def.response'
import { ListSchemaCredDefsQuery } from './dto/list-schema-cred-defs.query'

/** A schema's credential definitions (`GET /orgs/:orgId/schemas/:schemaId/cred-defs`): this module's records. */
@injectable()
@JsonController('/v1/orgs/:orgId/schemas')
@OpenAPI({ tags: ['Schemas'] })
export class SchemaCredDefsController {
  public constructor(
    private readonly schemas: SchemasService,
    private readonly credDefs: CredDefsService,
  ) {}

  @Get('/:schemaId/cred-defs')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({
    summary:
      "The organization's credential definitions of the schema (ledger id or record id); always empty for JSON " +
      'schemas (definitions are INDY); 404 for a ledger id on no ledger',
  })
  @ResponseData(pageOf(CRED_DEF_SCHEMA), { errors: [502] })
  async list(
    @Params() params: SchemaPathParams,
    @QueryParams() query: ListSchemaCredDefsQuery,
  ): Promise<Envelope<Page<CredDefResponse>>> {
    const schemaLedgerId = await this.schemas.indyLedgerIdOf(params.orgId, params.schemaId)
    if (!schemaLedgerId) return ok(toPage([], 0, query), 'Credential definitions fetched')
    const [definitions, total] = await this.credDefs.list(params.orgId, {
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      searchByText: query.searchByText,
      sortField: query.sortField,
      sortBy: query.sortBy,
      schemaLedgerId,
    })
    return ok(toPage(definitions.map(toCredDefResponse), total, query), 'Credential definitions fetched')
  }
}
