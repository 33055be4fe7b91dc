import { injectable } from 'inversify'
import {
  Body,
  Delete,
  Get,
  HttpCode,
  JsonController,
  Param,
  Params,
  Patch,
  Post,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, done, ok, type Envelope } from '../../infra/http/envelope'
import { arrayOf, messageOnly } from '../../infra/http/data-schema'
import { ORG_ROLES } from '../memberships/org-roles'
import { CreateOid4vcOfferDto, ListOid4vcOffersQuery } from './dto/credential-offer.dto'
import { CreateCredentialTemplateDto, UpdateCredentialTemplateDto } from './dto/credential-template.dto'
import { CreateOid4vcIssuerDto, UpdateOid4vcIssuerDto } from './dto/issuer.dto'
import {
  CredentialTemplateParams,
  Oid4vcDeleteOfferParams,
  Oid4vcIssuerParams,
  Oid4vcOfferParams,
} from './dto/oid4vc-path.params'
import {
  CREATED_OID4VC_OFFER_SCHEMA,
  CREDENTIAL_TEMPLATE_SCHEMA,
  OID4VC_ISSUER_SCHEMA,
  OID4VC_OFFER_SCHEMA,
  type CreatedOid4vcOfferResponse,
  type CredentialTemplateResponse,
  type Oid4vcIssuerResponse,
  type Oid4vcOfferResponse,
} from './dto/oid4vc.response'
import { Oid4vcService } from './oid4vc.service'
import { OpenId4VcRoute } from './openid4vc-route'

/** Roles of the OID4VCI routes: those of DIDComm issuance (credentials.controller.ts). */
export const OID4VC_ROLES = {
  /** Issuers, templates, offers: owner, admin, issuer. */
  issuers: ORG_ROLES.issuers,
  /** Reading them: every organization role, holder included (as issuance records). */
  readers: ORG_ROLES.membersAndHolders,
} as const

/**
 * OpenID4VC issuance (OID4VCI 1.0, issue 29) under the reference platform's paths. Mounted only while
 * HIDE_EXPERIMENTAL_OIDC_CONTROLLERS is false. Specific paths come before `/:issuerId/...` ones.
 */
@injectable()
@JsonController('/v1/orgs/:orgId/oid4vc')
@OpenAPI({ tags: ['OpenID4VC issuance'] })
export class Oid4vcController {
  public constructor(private readonly oid4vc: Oid4vcService) {}

  @Post('/issuers')
  @HttpCode(201)
  @OpenId4VcRoute(
    OID4VC_ROLES.issuers,
    'Create an OID4VCI issuer (metadata at <agent endpoint>/.well-known/openid-credential-issuer/oid4vci/<issuerId>)',
    OID4VC_ISSUER_SCHEMA,
  )
  async createIssuer(
    @Param('orgId') orgId: string,
    @Body() body: CreateOid4vcIssuerDto,
  ): Promise<Envelope<Oid4vcIssuerResponse>> {
    return created(await this.oid4vc.createIssuer(orgId, body), 'Issuer created')
  }

  @Get('/issuers')
  @OpenId4VcRoute(OID4VC_ROLES.readers, "The organization's OID4VCI issuers", arrayOf(OID4VC_ISSUER_SCHEMA))
  async listIssuers(@Param('orgId') orgId: string): Promise<Envelope<Oid4vcIssuerResponse[]>> {
    return ok(await this.oid4vc.listIssuers(orgId), 'Issuers fetched')
  }

  @Get('/issuers/:issuerId')
  @OpenId4VcRoute(OID4VC_ROLES.readers, 'One OID4VCI issuer', OID4VC_ISSUER_SCHEMA)
  async getIssuer(@Params() params: Oid4vcIssuerParams): Promise<Envelope<Oid4vcIssuerResponse>> {
    return ok(await this.oid4vc.getIssuer(params.orgId, params.issuerId), 'Issuer fetched')
  }

  @Post('/issuers/:issuerId')
  @OpenId4VcRoute(
    OID4VC_ROLES.issuers,
    'Update an issuer: replaces its display, batch size and authorization servers',
    OID4VC_ISSUER_SCHEMA,
  )
  async updateIssuer(
    @Params() params: Oid4vcIssuerParams,
    @Body() body: UpdateOid4vcIssuerDto,
  ): Promise<Envelope<Oid4vcIssuerResponse>> {
    return ok(await this.oid4vc.updateIssuer(params.orgId, params.issuerId, body), 'Issuer updated')
  }

  @Delete('/issuers/:issuerId')
  @OpenId4VcRoute(OID4VC_ROLES.issuers, 'Delete an issuer and its templates (its offers no longer redeem)', messageOnly)
  async deleteIssuer(@Params() params: Oid4vcIssuerParams): Promise<Envelope<never>> {
    await this.oid4vc.deleteIssuer(params.orgId, params.issuerId)
    return done('Issuer deleted')
  }

  @Get('/credential-offer')
  @OpenId4VcRoute(
    OID4VC_ROLES.readers,
    'Credential offers (issuance sessions) with their states, oldest first',
    arrayOf(OID4VC_OFFER_SCHEMA),
  )
  async listOffers(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListOid4vcOffersQuery,
  ): Promise<Envelope<Oid4vcOfferResponse[]>> {
    return ok(await this.oid4vc.listOffers(orgId, query), 'Credential offers fetched')
  }

  @Get('/credential-offer/:id')
  @OpenId4VcRoute(OID4VC_ROLES.readers, 'One credential offer with its state', OID4VC_OFFER_SCHEMA)
  async getOffer(@Params() params: Oid4vcOfferParams): Promise<Envelope<Oid4vcOfferResponse>> {
    return ok(await this.oid4vc.getOffer(params.orgId, params.id), 'Credential offer fetched')
  }

  @Post('/:issuerId/template')
  @HttpCode(201)
  @OpenId4VcRoute(
    OID4VC_ROLES.issuers,
    'Add a credential template (dc+sd-jwt, mso_mdoc, jwt_vc_json) to an issuer',
    CREDENTIAL_TEMPLATE_SCHEMA,
  )
  async createTemplate(
    @Params() params: Oid4vcIssuerParams,
    @Body({ required: true }) body: CreateCredentialTemplateDto,
  ): Promise<Envelope<CredentialTemplateResponse>> {
    return created(await this.oid4vc.createTemplate(params.orgId, params.issuerId, body), 'Credential template created')
  }

  @Get('/:issuerId/template')
  @OpenId4VcRoute(OID4VC_ROLES.readers, "An issuer's credential templates", arrayOf(CREDENTIAL_TEMPLATE_SCHEMA))
  async listTemplates(@Params() params: Oid4vcIssuerParams): Promise<Envelope<CredentialTemplateResponse[]>> {
    return ok(await this.oid4vc.listTemplates(params.orgId, params.issuerId), 'Credential templates fetched')
  }

  @Get('/:issuerId/template/:templateId')
  @OpenId4VcRoute(OID4VC_ROLES.readers, 'One credential template', CREDENTIAL_TEMPLATE_SCHEMA)
  async getTemplate(@Params() params: CredentialTemplateParams): Promise<Envelope<CredentialTemplateResponse>> {
    const template = await this.oid4vc.getTemplate(params.orgId, params.issuerId, params.templateId)
    return ok(template, 'Credential template fetched')
  }

  @Patch('/:issuerId/template/:templateId')
  @OpenId4VcRoute(
    OID4VC_ROLES.issuers,
    'Change a credential template: the given fields replace the stored ones',
    CREDENTIAL_TEMPLATE_SCHEMA,
  )
  async updateTemplate(
    @Params() params: CredentialTemplateParams,
    @Body({ required: true }) body: UpdateCredentialTemplateDto,
  ): Promise<Envelope<CredentialTemplateResponse>> {
    const template = await this.oid4vc.updateTemplate(params.orgId, params.issuerId, params.templateId, body)
    return ok(template, 'Credential template updated')
  }

  @Delete('/:issuerId/template/:templateId')
  @OpenId4VcRoute(OID4VC_ROLES.issuers, 'Delete a credential template', messageOnly)
  async deleteTemplate(@Params() params: CredentialTemplateParams): Promise<Envelope<never>> {
    await this.oid4vc.deleteTemplate(params.orgId, params.issuerId, params.templateId)
    return done('Credential template deleted')
  }

  @Post('/:issuerId/create-offer')
  @HttpCode(201)
  @OpenId4VcRoute(
    OID4VC_ROLES.issuers,
    'Offer credentials (pre-authorized, optionally with a transaction code): the offer URI for the wallet',
    CREATED_OID4VC_OFFER_SCHEMA,
  )
  async createOffer(
    @Params() params: Oid4vcIssuerParams,
    @Body({ required: true }) body: CreateOid4vcOfferDto,
  ): Promise<Envelope<CreatedOid4vcOfferResponse>> {
    return created(await this.oid4vc.createOffer(params.orgId, params.issuerId, body), 'Credential offer created')
  }

  @Delete('/:credentialId/delete-offer')
  @OpenId4VcRoute(OID4VC_ROLES.issuers, 'Delete a credential offer: its codes no longer redeem', messageOnly)
  async deleteOffer(@Params() params: Oid4vcDeleteOfferParams): Promise<Envelope<never>> {
    await this.oid4vc.deleteOffer(params.orgId, params.credentialId)
    return done('Credential offer deleted')
  }
}
