import { injectable } from 'inversify'
import { Authorized, Body, Get, HttpCode, JsonController, Param, Params, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok } from '../../infra/http/envelope'
import { toPage } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { pageOf } from '../../infra/http/data-schema'
import { CurrentOrgCaller, type OrgCaller } from '../memberships/org-caller.decorator'
import { ORG_ROLES } from '../memberships/org-roles'
import { CreateSchemaDto } from './dto/create-schema.dto'
import { ListSchemaCredDefsQuery, ListSchemasQuery } from './dto/list-schemas.query'
import { SchemaPathParams } from './dto/schema-path.params'
import {
  SCHEMA_CRED_DEF_SCHEMA,
  SCHEMA_DETAIL_SCHEMA,
  SCHEMA_SCHEMA,
  toSchemaDetailResponse,
  toSchemaResponse,
} from './dto/schema.response'
import { SchemasService } from './schemas.service'

@injectable()
@JsonController('/v1/orgs/:orgId/schemas')
@OpenAPI({ tags: ['Schemas'] })
export class SchemasController {
  public constructor(private readonly schemas: SchemasService) {}

  @Post()
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({
    summary:
      'Create a schema. JSON: a JSON Schema built from the attribute definitions, published at a public URL ' +
      '(schemaLedgerId); schemaType NO_LEDGER. INDY and Polygon schema types answer 501',
  })
  @ResponseData(SCHEMA_SCHEMA, { errors: [409] })
  async create(
    @Param('orgId') orgId: string,
    @CurrentOrgCaller() caller: OrgCaller,
    @Body({ required: true }) body: CreateSchemaDto,
  ) {
    const schema = await this.schemas.create(orgId, caller, body)
    return created(toSchemaResponse(schema, this.schemas.urlOf(schema)), 'Schema created')
  }

  @Get()
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: "The organization's schemas of both types, paginated; searchByText matches names" })
  @ResponseData(pageOf(SCHEMA_SCHEMA))
  async list(@Param('orgId') orgId: string, @QueryParams() query: ListSchemasQuery) {
    const [schemas, total] = await this.schemas.list(orgId, query)
    const items = schemas.map((schema) => toSchemaResponse(schema, this.schemas.urlOf(schema)))
    return ok(toPage(items, total, query), 'Schemas fetched')
  }

  @Get('/:schemaId')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: 'One schema by record id or public URL (schemaLedgerId, URL-encoded), with its JSON Schema' })
  @ResponseData(SCHEMA_DETAIL_SCHEMA)
  async get(@Params() params: SchemaPathParams) {
    const schema = await this.schemas.get(params.orgId, params.schemaId)
    const url = this.schemas.urlOf(schema)
    return ok(toSchemaDetailResponse(schema, url, this.schemas.documentOf(schema)), 'Schema fetched')
  }

  @Get('/:schemaId/cred-defs')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({
    summary: 'Credential definitions derived from the schema; always empty for JSON schemas (definitions are INDY)',
  })
  @ResponseData(pageOf(SCHEMA_CRED_DEF_SCHEMA))
  async credDefs(@Params() params: SchemaPathParams, @QueryParams() query: ListSchemaCredDefsQuery) {
    await this.schemas.get(params.orgId, params.schemaId)
    return ok(toPage<Record<string, never>>([], 0, query), 'Credential definitions fetched')
  }
}
