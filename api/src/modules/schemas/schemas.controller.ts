import { injectable } from 'inversify'
import { Authorized, Body, Get, HttpCode, JsonController, Param, Params, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { pageOf } from '../../infra/http/data-schema'
import { CurrentOrgCaller, type OrgCaller } from '../memberships/org-caller.decorator'
import { ORG_ROLES } from '../memberships/org-roles'
import { CreateSchemaDto } from './dto/create-schema.dto'
import { ListSchemasQuery } from './dto/list-schemas.query'
import { SchemaPathParams } from './dto/schema-path.params'
import {
  SCHEMA_READ_SCHEMA,
  SCHEMA_SCHEMA,
  toSchemaDetailResponse,
  toSchemaReadResponse,
  toSchemaResponse,
  type SchemaReadResponse,
  type SchemaResponse,
} from './dto/schema.response'
import type { CredentialSchema } from './credential-schema.entity'
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
      '(schemaLedgerId); schemaType NO_LEDGER (or no_ledger, W3C); POLYGON_W3C and polygon answer 501. INDY: registered through the ' +
      "organization's agent on its ledger under orgDid or the organization's Indy DID (schemaLedgerId: the ledger id)",
  })
  @ResponseData(SCHEMA_SCHEMA, { errors: [409, 501, 502] })
  async create(
    @Param('orgId') orgId: string,
    @CurrentOrgCaller() caller: OrgCaller,
    @Body({ required: true }) body: CreateSchemaDto,
  ): Promise<Envelope<SchemaResponse>> {
    const schema = await this.schemas.create(orgId, caller, body)
    return created(toSchemaResponse(schema, this.schemas.ledgerIdOf(schema)), 'Schema created')
  }

  @Get()
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: "The organization's schemas of both types, paginated; searchByText matches names" })
  @ResponseData(pageOf(SCHEMA_SCHEMA))
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListSchemasQuery,
  ): Promise<Envelope<Page<SchemaResponse>>> {
    const [schemas, total] = await this.schemas.list(orgId, query)
    const items = schemas.map((schema) => toSchemaResponse(schema, this.schemas.ledgerIdOf(schema)))
    return ok(toPage(items, total, query), 'Schemas fetched')
  }

  @Get('/:schemaId')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({
    summary:
      'One schema. By ledger id (INDY, URL-encoded): the schema as the ledger holds it, read through the ' +
      "organization's agent (404 when absent), with the organization's record when it created it. By record id or " +
      'public URL (schemaLedgerId of a JSON schema): the record with its JSON Schema',
  })
  @ResponseData(SCHEMA_READ_SCHEMA, { errors: [502] })
  async get(@Params() params: SchemaPathParams): Promise<Envelope<SchemaReadResponse>> {
    const reference = await this.schemas.reference(params.orgId, params.schemaId)
    if (reference.kind === 'record') return ok(this.detailOf(reference.schema), 'Schema fetched')
    const ledger = await this.schemas.ledgerSchema(params.orgId, reference.schemaId)
    const record = await this.schemas.recordOfLedgerId(params.orgId, reference.schemaId)
    return ok(toSchemaReadResponse(ledger, record ? this.detailOf(record) : undefined), 'Schema fetched')
  }

  private detailOf(schema: CredentialSchema) {
    const document = schema.type === 'JSON' ? this.schemas.documentOf(schema) : null
    return toSchemaDetailResponse(schema, this.schemas.ledgerIdOf(schema), document)
  }
}
