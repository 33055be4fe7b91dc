import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  Delete,
  Get,
  HttpCode,
  JsonController,
  Param,
  Params,
  Post,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, done, ok, type Envelope } from '../../infra/http/envelope'
import { arrayOf, pageOf, messageOnly } from '../../infra/http/data-schema'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { ORG_ROLES } from '../memberships/org-roles'
import { CredentialRecordParams } from './dto/credential-path.params'
import {
  EMAIL_OFFERS_SCHEMA,
  CREDENTIAL_RECORD_DETAIL_SCHEMA,
  CREDENTIAL_RECORD_SCHEMA,
  OOB_OFFER_SCHEMA,
  PUBLISHED_REVOCATIONS_SCHEMA,
  toCredentialRecordResponse,
  type CredentialRecordDetailResponse,
  type CredentialRecordResponse,
  type EmailOfferResponse,
  type OobOfferResponse,
} from './dto/credential.response'
import {
  EmailOfferCredentialDto,
  IssuanceQuery,
  OfferCredentialDto,
  OobOfferCredentialDto,
} from './dto/issue-credential.dto'
import { ListCredentialsQuery, type CredentialSortField } from './dto/list-credentials.query'
import { CredentialsService } from './credentials.service'
import { CredentialRevocations, type PublishedRevocations } from './credential-revocations'
import { RevokeCredentialDto } from './dto/revoke-credential.dto'

/** Credential issuance, not bulk (spec: Credential issuance). */
@injectable()
@JsonController('/v1/orgs/:orgId')
@OpenAPI({ tags: ['Credential issuance'] })
export class CredentialsController {
  public constructor(
    private readonly credentials: CredentialsService,
    private readonly revocations: CredentialRevocations,
  ) {}

  @Post('/credentials/offer')
  @HttpCode(201)
  @Authorized(ORG_ROLES.issuers)
  @OpenAPI({ summary: 'Offer a credential over each given connection; one issuance record per entry' })
  @ResponseData(arrayOf(CREDENTIAL_RECORD_SCHEMA), { errors: [404, 409, 502] })
  async offer(
    @Param('orgId') orgId: string,
    @QueryParams() query: IssuanceQuery,
    @Body({ required: true }) body: OfferCredentialDto,
  ): Promise<Envelope<CredentialRecordResponse[]>> {
    return created(await this.credentials.offer(orgId, query, body), 'Credential offered')
  }

  @Post('/credentials/oob/offer')
  @HttpCode(201)
  @Authorized(ORG_ROLES.issuers)
  @OpenAPI({ summary: 'Create an out-of-band invitation carrying a credential offer (short URL on request)' })
  @ResponseData(OOB_OFFER_SCHEMA, { errors: [404, 409, 502] })
  async offerOutOfBand(
    @Param('orgId') orgId: string,
    @QueryParams() query: IssuanceQuery,
    @Body({ required: true }) body: OobOfferCredentialDto,
  ): Promise<Envelope<OobOfferResponse>> {
    return created(await this.credentials.offerOutOfBand(orgId, query, body), 'Out-of-band credential offer created')
  }

  @Post('/credentials/oob/email')
  @HttpCode(201)
  @Authorized(ORG_ROLES.issuers)
  @OpenAPI({ summary: 'Mail an out-of-band credential offer (link and QR code) to each address' })
  @ResponseData(EMAIL_OFFERS_SCHEMA, { errors: [404, 409, 502] })
  async offerByEmail(
    @Param('orgId') orgId: string,
    @QueryParams() query: IssuanceQuery,
    @Body({ required: true }) body: EmailOfferCredentialDto,
  ): Promise<Envelope<EmailOfferResponse[]>> {
    return created(await this.credentials.offerByEmail(orgId, query, body), 'Credential offers mailed')
  }

  @Get('/credentials')
  @Authorized(ORG_ROLES.membersAndHolders)
  @OpenAPI({ summary: "The organization's issuance records, paginated; free-text search and sort" })
  @ResponseData(pageOf(CREDENTIAL_RECORD_SCHEMA))
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListCredentialsQuery,
  ): Promise<Envelope<Page<CredentialRecordResponse>>> {
    const [records, total] = await this.credentials.list(orgId, {
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      search: query.searchByText ?? query.search,
      sortField: (query.sortField ?? 'createDateTime') as CredentialSortField,
      sortBy: query.sortBy?.toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
    })
    return ok(toPage(records.map(toCredentialRecordResponse), total, query), 'Issuance records fetched')
  }

  @Get('/credentials/:credentialRecordId')
  @Authorized(ORG_ROLES.membersAndHolders)
  @OpenAPI({ summary: "One issuance record with the agent's live exchange detail" })
  @ResponseData(CREDENTIAL_RECORD_DETAIL_SCHEMA)
  async get(@Params() params: CredentialRecordParams): Promise<Envelope<CredentialRecordDetailResponse>> {
    return ok(await this.credentials.get(params.orgId, params.credentialRecordId), 'Issuance record fetched')
  }

  @Post('/credentials/:credentialRecordId/revoke')
  @HttpCode(201)
  @Authorized(ORG_ROLES.issuers)
  @OpenAPI({
    summary:
      'Revoke an AnonCreds credential issued against a revocable definition, or revoke, suspend (purpose ' +
      'suspension) or reinstate (purpose suspension, reinstate true) a JSON-LD credential issued with a ' +
      'credentialStatus, or an SD-JWT VC offered over OpenID4VC with a status (credentialRecordId: the offer id; ' +
      'extension): the new status list is published now, or with publish false the change is ' +
      'pending until POST revocations/publish. 400 for a credential issued without a status, not issued yet, or a ' +
      'purpose that does not apply to it; 409 when already in that state',
  })
  @ResponseData(CREDENTIAL_RECORD_SCHEMA, { errors: [400, 404, 409, 502] })
  async revoke(
    @Params() params: CredentialRecordParams,
    @Body({ required: false }) body: RevokeCredentialDto,
  ): Promise<Envelope<CredentialRecordResponse>> {
    const record = await this.revocations.revoke(params.orgId, params.credentialRecordId, {
      publish: body?.publish !== false,
      purpose: body?.purpose,
      reinstate: body?.reinstate === true,
    })
    return created(record, revokeMessage(record, body))
  }

  @Post('/revocations/publish')
  @HttpCode(201)
  @Authorized(ORG_ROLES.issuers)
  @OpenAPI({
    summary: 'Publish every pending revocation of the organization (extension): one new status list per registry',
  })
  @ResponseData(arrayOf(PUBLISHED_REVOCATIONS_SCHEMA), { errors: [404, 502] })
  async publishRevocations(@Param('orgId') orgId: string): Promise<Envelope<PublishedRevocations[]>> {
    const published = await this.revocations.publishPending(orgId)
    return created(published, `${published.length} revocation status list(s) published`)
  }

  @Delete('/issuance-records')
  @Authorized(ORG_ROLES.owner)
  @OpenAPI({ summary: "Delete every issuance record of the organization, the platform's and the agent's" })
  @ResponseData(messageOnly, { errors: [409, 502] })
  async deleteAll(@Param('orgId') orgId: string): Promise<Envelope<never>> {
    const count = await this.credentials.deleteAll(orgId)
    return done(`${count} issuance record(s) deleted`)
  }
}

/** The answer's message: what was done, and whether it is published yet. */
function revokeMessage(record: CredentialRecordResponse, body: RevokeCredentialDto | undefined): string {
  if (body?.reinstate)
    return record.suspensionStatus === null
      ? 'Credential reinstated'
      : 'Credential reinstatement recorded, to be published'
  if (body?.purpose === 'suspension')
    return record.suspended ? 'Credential suspended' : 'Credential suspension recorded, to be published'
  return record.revoked ? 'Credential revoked' : 'Credential revocation recorded, to be published'
}
