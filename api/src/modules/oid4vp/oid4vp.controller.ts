import { injectable } from 'inversify'
import { Body, Delete, Get, HttpCode, JsonController, Param, Params, Post, Put, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, done, ok, type Envelope } from '../../infra/http/envelope'
import { arrayOf, messageOnly } from '../../infra/http/data-schema'
import { ORG_ROLES } from '../memberships/org-roles'
import { PROOF_ROLES } from '../proofs/proofs.controller'
import { Oid4vpVerifierParams, VerificationTemplateParams } from './dto/oid4vp-path.params'
import {
  CREATED_PRESENTATION_REQUEST_SCHEMA,
  OID4VP_VERIFIER_SCHEMA,
  PRESENTATION_SESSION_SCHEMA,
  VERIFICATION_TEMPLATE_SCHEMA,
  type CreatedPresentationRequestResponse,
  type Oid4vpVerifierResponse,
  type PresentationSessionResponse,
  type VerificationTemplateResponse,
} from './dto/oid4vp.response'
import {
  CreatePresentationRequestDto,
  ListVerifierPresentationsQuery,
  VerificationTemplateDto,
} from './dto/presentation.dto'
import {
  CreateOid4vpVerifierDto,
  DeleteOid4vpVerifierQuery,
  Oid4vpVerifierQuery,
  UpdateOid4vpVerifierDto,
} from './dto/verifier.dto'
import { Oid4vpService } from './oid4vp.service'
import { OpenId4VcRoute } from '../oid4vc/openid4vc-route'

/** Roles of the OID4VP routes: those of DIDComm verification (proofs.controller.ts). */
export const OID4VP_ROLES = {
  /** Verifiers, templates, requests: owner, admin, verifier. */
  verifiers: PROOF_ROLES.verifiers,
  /** Reading them: every organization role, holder included (as proof records). */
  readers: ORG_ROLES.membersAndHolders,
} as const

/**
 * OpenID4VC verification (OID4VP 1.0, issue 29) under the reference platform's paths. Mounted only while
 * HIDE_EXPERIMENTAL_OIDC_CONTROLLERS is false (oid4vc.config.ts).
 */
@injectable()
@JsonController('/v1/orgs/:orgId/oid4vp')
@OpenAPI({ tags: ['OpenID4VC verification'] })
export class Oid4vpController {
  public constructor(private readonly oid4vp: Oid4vpService) {}

  @Post('/verifier')
  @HttpCode(201)
  @OpenId4VcRoute(OID4VP_ROLES.verifiers, 'Create an OID4VP verifier', OID4VP_VERIFIER_SCHEMA)
  async createVerifier(
    @Param('orgId') orgId: string,
    @Body() body: CreateOid4vpVerifierDto,
  ): Promise<Envelope<Oid4vpVerifierResponse>> {
    return created(await this.oid4vp.createVerifier(orgId, body), 'Verifier created')
  }

  @Get('/verifier')
  @OpenId4VcRoute(
    OID4VP_ROLES.readers,
    "The organization's verifiers, or the one named by verifierId",
    arrayOf(OID4VP_VERIFIER_SCHEMA),
  )
  async listVerifiers(
    @Param('orgId') orgId: string,
    @QueryParams() query: Oid4vpVerifierQuery,
  ): Promise<Envelope<Oid4vpVerifierResponse[]>> {
    return ok(await this.oid4vp.listVerifiers(orgId, query.verifierId), 'Verifiers fetched')
  }

  @Put('/verifier/:verifierId')
  @OpenId4VcRoute(
    OID4VP_ROLES.verifiers,
    "Replace a verifier's client metadata (name and logo wallets show)",
    OID4VP_VERIFIER_SCHEMA,
  )
  async updateVerifier(
    @Params() params: Oid4vpVerifierParams,
    @Body() body: UpdateOid4vpVerifierDto,
  ): Promise<Envelope<Oid4vpVerifierResponse>> {
    return ok(await this.oid4vp.updateVerifier(params.orgId, params.verifierId, body), 'Verifier updated')
  }

  @Delete('/verifier')
  @OpenId4VcRoute(
    OID4VP_ROLES.verifiers,
    'Delete the verifier named by verifierId; its open requests can no longer be answered',
    messageOnly,
  )
  async deleteVerifier(
    @Param('orgId') orgId: string,
    @QueryParams() query: DeleteOid4vpVerifierQuery,
  ): Promise<Envelope<never>> {
    await this.oid4vp.deleteVerifier(orgId, query.verifierId)
    return done('Verifier deleted')
  }

  @Post('/presentation')
  @HttpCode(201)
  @OpenId4VcRoute(
    OID4VP_ROLES.verifiers,
    'Create an authorization request (DCQL or Presentation Exchange): requestUri is the link / QR payload',
    CREATED_PRESENTATION_REQUEST_SCHEMA,
  )
  async createPresentationRequest(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: CreatePresentationRequestDto,
  ): Promise<Envelope<CreatedPresentationRequestResponse>> {
    return created(await this.oid4vp.createPresentationRequest(orgId, body), 'Presentation request created')
  }

  @Get('/verifier-presentation')
  @OpenId4VcRoute(
    OID4VP_ROLES.readers,
    'Presentation sessions with their states and, once verified, the disclosed claims',
    arrayOf(PRESENTATION_SESSION_SCHEMA),
  )
  async listPresentations(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListVerifierPresentationsQuery,
  ): Promise<Envelope<PresentationSessionResponse[]>> {
    return ok(await this.oid4vp.listPresentations(orgId, query), 'Presentation sessions fetched')
  }

  @Post('/verification-template')
  @HttpCode(201)
  @OpenId4VcRoute(
    OID4VP_ROLES.verifiers,
    'Store a presentation request (query, response mode, signer) for reuse',
    VERIFICATION_TEMPLATE_SCHEMA,
  )
  async createVerificationTemplate(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: VerificationTemplateDto,
  ): Promise<Envelope<VerificationTemplateResponse>> {
    return created(await this.oid4vp.createVerificationTemplate(orgId, body), 'Verification template created')
  }

  @Get('/verification-template')
  @OpenId4VcRoute(
    OID4VP_ROLES.readers,
    "The organization's verification templates",
    arrayOf(VERIFICATION_TEMPLATE_SCHEMA),
  )
  async listVerificationTemplates(@Param('orgId') orgId: string): Promise<Envelope<VerificationTemplateResponse[]>> {
    return ok(await this.oid4vp.listVerificationTemplates(orgId), 'Verification templates fetched')
  }

  @Put('/verification-template/:templateId')
  @OpenId4VcRoute(OID4VP_ROLES.verifiers, 'Replace a verification template', VERIFICATION_TEMPLATE_SCHEMA)
  async replaceVerificationTemplate(
    @Params() params: VerificationTemplateParams,
    @Body({ required: true }) body: VerificationTemplateDto,
  ): Promise<Envelope<VerificationTemplateResponse>> {
    const template = await this.oid4vp.replaceVerificationTemplate(params.orgId, params.templateId, body)
    return ok(template, 'Verification template updated')
  }

  @Delete('/verification-template/:templateId')
  @OpenId4VcRoute(OID4VP_ROLES.verifiers, 'Delete a verification template', messageOnly)
  async deleteVerificationTemplate(@Params() params: VerificationTemplateParams): Promise<Envelope<never>> {
    await this.oid4vp.deleteVerificationTemplate(params.orgId, params.templateId)
    return done('Verification template deleted')
  }
}
