import { injectable } from 'inversify'
import { Body, Delete, Get, HttpCode, JsonController, Param, Params, Post, Put, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { arrayOf, object, uuid } from '../../infra/http/data-schema'
import { ORG_ROLES } from '../memberships/org-roles'
import { CreateX509CertificateDto, ImportX509CertificateDto } from './dto/x509-certificate.dto'
import { X509_CERTIFICATE_SCHEMA, type X509CertificateResponse } from './dto/x509-certificate.response'
import { X509CertificatePathParams } from './dto/x509-path.params'
import { X509TrustAnchorDto, X509TrustAnchorPathParams } from './dto/x509-trust-anchor.dto'
import { X509_TRUST_ANCHOR_SCHEMA, type X509TrustAnchorResponse } from './dto/x509-trust-anchor.response'
import { ListX509CertificatesQuery } from './dto/x509.query'
import { X509Service } from './x509.service'
import { OpenId4VcRoute } from '../oid4vc/openid4vc-route'

/**
 * Roles of the x509 routes (decision, docs/decisions.md "OpenID4VC"): keys and certificates are the organization's
 * identity, managed by owner and admin; everyone who issues or verifies may read them.
 */
export const X509_ROLES = {
  managers: ORG_ROLES.ownerAdmin,
  readers: ORG_ROLES.members,
} as const

const X509_TRUST_ANCHOR_REMOVED_SCHEMA = object<{ id: string }>('X509TrustAnchorRemoved', { id: uuid })

@injectable()
@JsonController('/v1/x509/:orgId')
@OpenAPI({ tags: ['x509'] })
export class X509Controller {
  public constructor(private readonly certificates: X509Service) {}

  @Post()
  @HttpCode(201)
  @OpenId4VcRoute(
    X509_ROLES.managers,
    'Create a key and an x509 certificate for it, self-signed or under an authority certificate',
    X509_CERTIFICATE_SCHEMA,
  )
  async create(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: CreateX509CertificateDto,
  ): Promise<Envelope<X509CertificateResponse>> {
    return created(await this.certificates.create(orgId, body), 'x509 certificate created')
  }

  @Post('/import')
  @HttpCode(201)
  @OpenId4VcRoute(X509_ROLES.managers, 'Import an x509 certificate with its private key', X509_CERTIFICATE_SCHEMA)
  async import(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: ImportX509CertificateDto,
  ): Promise<Envelope<X509CertificateResponse>> {
    return created(await this.certificates.import(orgId, body), 'x509 certificate imported')
  }

  @Get()
  @OpenId4VcRoute(
    X509_ROLES.readers,
    "The organization's x509 certificates, oldest first; filter by purpose and status",
    arrayOf(X509_CERTIFICATE_SCHEMA),
  )
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListX509CertificatesQuery,
  ): Promise<Envelope<X509CertificateResponse[]>> {
    return ok(await this.certificates.list(orgId, query), 'x509 certificates fetched')
  }

  // Trust anchors are declared before `/:id`, which would otherwise take `trust-anchors` for a certificate id.
  @Post('/trust-anchors')
  @HttpCode(201)
  @OpenId4VcRoute(
    X509_ROLES.managers,
    "Trust a certificate for the organization's verifier (credentials signed by an x5c chain ending in it verify)",
    X509_TRUST_ANCHOR_SCHEMA,
  )
  async addTrustAnchor(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: X509TrustAnchorDto,
  ): Promise<Envelope<X509TrustAnchorResponse>> {
    return created(await this.certificates.addTrustAnchor(orgId, body), 'Trust anchor added')
  }

  @Get('/trust-anchors')
  @OpenId4VcRoute(
    X509_ROLES.readers,
    "The organization verifier's trust anchors, oldest first",
    arrayOf(X509_TRUST_ANCHOR_SCHEMA),
  )
  async trustAnchors(@Param('orgId') orgId: string): Promise<Envelope<X509TrustAnchorResponse[]>> {
    return ok(await this.certificates.listTrustAnchors(orgId), 'Trust anchors fetched')
  }

  @Delete('/trust-anchors/:trustAnchorId')
  @OpenId4VcRoute(X509_ROLES.managers, 'Stop trusting a certificate', X509_TRUST_ANCHOR_REMOVED_SCHEMA)
  async removeTrustAnchor(@Params() params: X509TrustAnchorPathParams): Promise<Envelope<{ id: string }>> {
    return ok(await this.certificates.removeTrustAnchor(params.orgId, params.trustAnchorId), 'Trust anchor removed')
  }

  @Get('/:id')
  @OpenId4VcRoute(X509_ROLES.readers, 'One x509 certificate', X509_CERTIFICATE_SCHEMA)
  async get(@Params() params: X509CertificatePathParams): Promise<Envelope<X509CertificateResponse>> {
    return ok(await this.certificates.get(params.orgId, params.id), 'x509 certificate fetched')
  }

  @Put('/activate/:id')
  @OpenId4VcRoute(
    X509_ROLES.managers,
    'Make the certificate the active one of its purpose (the one active before is deactivated)',
    X509_CERTIFICATE_SCHEMA,
  )
  async activate(@Params() params: X509CertificatePathParams): Promise<Envelope<X509CertificateResponse>> {
    return ok(await this.certificates.activate(params.orgId, params.id), 'x509 certificate activated')
  }

  @Put('/deactivate/:id')
  @OpenId4VcRoute(X509_ROLES.managers, 'Deactivate the certificate', X509_CERTIFICATE_SCHEMA)
  async deactivate(@Params() params: X509CertificatePathParams): Promise<Envelope<X509CertificateResponse>> {
    return ok(await this.certificates.deactivate(params.orgId, params.id), 'x509 certificate deactivated')
  }
}
