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
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { arrayOf, pageOf } from '../../infra/http/data-schema'
import { ORG_ROLES } from '../memberships/org-roles'
import { ListProofsQuery } from './dto/list-proofs.query'
import { OrgProofParams } from './dto/proof-path.params'
import {
  DELETED_PROOFS_SCHEMA,
  OOB_PROOF_SCHEMA,
  PROOF_DETAIL_SCHEMA,
  PROOF_SCHEMA,
  VERIFIED_PROOF_SCHEMA,
  type DeletedProofsResponse,
  type OobProofResponse,
  type ProofDetailResponse,
  type ProofResponse,
  type VerifiedProofResponse,
} from './dto/proof.response'
import { OobProofRequestDto, RequestProofDto, RequestProofV2Dto, RequestTypeQuery } from './dto/request-proof.dto'
import { ProofsService } from './proofs.service'

/** Spec roles of the Verification routes. */
export const PROOF_ROLES = {
  /** Sending requests and verifying: owner, admin, verifier. */
  verifiers: ['owner', 'admin', 'verifier'],
  /** Reading records: every organization role, holder included. */
  readers: ORG_ROLES.membersAndHolders,
  /** Deleting every record: owner. */
  owner: ORG_ROLES.owner,
} as const

const AGENT_ERRORS = [404, 409, 502] as const

@injectable()
@JsonController('/v1/orgs/:orgId')
@OpenAPI({ tags: ['Verification'] })
export class ProofsController {
  public constructor(private readonly proofs: ProofsService) {}

  @Post('/proofs')
  @HttpCode(201)
  @Authorized(PROOF_ROLES.verifiers)
  @OpenAPI({
    summary: 'Request a proof over one connection (INDY: proofFormats.indy.attributes; PRESENTATIONEXCHANGE)',
  })
  @ResponseData(PROOF_SCHEMA, { errors: AGENT_ERRORS })
  async request(
    @Param('orgId') orgId: string,
    @QueryParams() query: RequestTypeQuery,
    @Body({ required: true }) body: RequestProofDto,
  ): Promise<Envelope<ProofResponse>> {
    return created(await this.proofs.request(orgId, query.requestType, body), 'Proof requested')
  }

  @Post('/proofs/oob')
  @HttpCode(201)
  @Authorized(PROOF_ROLES.verifiers)
  @OpenAPI({
    summary: 'Request a proof out of band: a (short) invitation URL, or one request mailed to each address of emailId',
  })
  @ResponseData(arrayOf(OOB_PROOF_SCHEMA), { errors: AGENT_ERRORS })
  async requestOutOfBand(
    @Param('orgId') orgId: string,
    @QueryParams() query: RequestTypeQuery,
    @Body({ required: true }) body: OobProofRequestDto,
  ): Promise<Envelope<OobProofResponse[]>> {
    return created(await this.proofs.requestOutOfBand(orgId, query.requestType, body), 'Out-of-band proof requested')
  }

  @Post('/proofs/:proofId/verify')
  @HttpCode(201)
  @Authorized(PROOF_ROLES.verifiers)
  @OpenAPI({ summary: 'Verify the presentation received for a proof request; isVerified tells the result' })
  @ResponseData(PROOF_SCHEMA, { errors: AGENT_ERRORS })
  async verify(@Params() params: OrgProofParams): Promise<Envelope<ProofResponse>> {
    return created(await this.proofs.verify(params.orgId, params.proofId), 'Proof verified')
  }

  @Get('/proofs')
  @Authorized(PROOF_ROLES.readers)
  @OpenAPI({ summary: "The organization's proof records, paginated; search and sort" })
  @ResponseData(pageOf(PROOF_SCHEMA))
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListProofsQuery,
  ): Promise<Envelope<Page<ProofResponse>>> {
    const [items, total] = await this.proofs.list(orgId, query)
    return ok(toPage(items, total, query), 'Proof records fetched')
  }

  @Get('/proofs/:proofId')
  @Authorized(PROOF_ROLES.readers)
  @OpenAPI({ summary: 'One proof record with the request and the submitted presentation' })
  @ResponseData(PROOF_DETAIL_SCHEMA, { errors: [502] })
  async get(@Params() params: OrgProofParams): Promise<Envelope<ProofDetailResponse>> {
    return ok(await this.proofs.get(params.orgId, params.proofId), 'Proof record fetched')
  }

  @Get('/verified-proofs/:proofId')
  @Authorized(PROOF_ROLES.readers)
  @OpenAPI({ summary: 'The revealed values of a proof and its verification status' })
  @ResponseData(VERIFIED_PROOF_SCHEMA, { errors: [502] })
  async verified(@Params() params: OrgProofParams): Promise<Envelope<VerifiedProofResponse>> {
    return ok(await this.proofs.verified(params.orgId, params.proofId), 'Verified proof fetched')
  }

  @Delete('/verification-records')
  @Authorized(PROOF_ROLES.owner)
  @OpenAPI({ summary: "Delete every verification record of the organization, the platform's and the agent's" })
  @ResponseData(DELETED_PROOFS_SCHEMA, { errors: [409, 502] })
  async deleteAll(@Param('orgId') orgId: string): Promise<Envelope<DeletedProofsResponse>> {
    return ok({ deletedRecords: await this.proofs.deleteAll(orgId) }, 'Verification records deleted')
  }
}

/** `POST /v2/orgs/:orgId/proofs` (spec: Versioning 2): the v1 request to several connections. */
@injectable()
@JsonController('/v2/orgs/:orgId')
@OpenAPI({ tags: ['Verification'] })
export class ProofsV2Controller {
  public constructor(private readonly proofs: ProofsService) {}

  @Post('/proofs')
  @HttpCode(201)
  @Authorized(PROOF_ROLES.verifiers)
  @OpenAPI({
    summary: 'Request a proof over each of several connections (at most PROOF_REQ_CONN_LIMIT); one record each',
  })
  @ResponseData(arrayOf(PROOF_SCHEMA), { errors: AGENT_ERRORS })
  async request(
    @Param('orgId') orgId: string,
    @QueryParams() query: RequestTypeQuery,
    @Body({ required: true }) body: RequestProofV2Dto,
  ): Promise<Envelope<ProofResponse[]>> {
    return created(await this.proofs.requestMany(orgId, query.requestType, body), 'Proofs requested')
  }
}
