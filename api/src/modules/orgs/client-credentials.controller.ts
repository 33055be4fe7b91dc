import type { CookieOptions } from 'express'
import { inject, injectable } from 'inversify'
import { Authorized, Body, CurrentUser, Get, HttpCode, JsonController, Param, Post, Res } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { ORG_ROLES } from '../memberships/org-roles'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { ClientIp } from '../../infra/rate-limit/client-ip'
import { ClientCredentialsService, maskSecret } from './client-credentials.service'
import { ClientTokenDto } from './dto/client-token.dto'
import type {
  ClientTokenResponse,
  GeneratedClientCredentialsResponse,
  MaskedClientCredentialsResponse,
} from './dto/client-credentials.response'
import { ResponseData } from '../../infra/http/response-doc'
import {
  CLIENT_TOKEN_SCHEMA,
  GENERATED_CLIENT_CREDENTIALS_SCHEMA,
  MASKED_CLIENT_CREDENTIALS_SCHEMA,
} from './dto/client-credentials.response'

/** The cookie set by the token exchange (spec: Authentication 7); attributes in docs/decisions.md. */
export const SESSION_COOKIE = 'session_id'

/** Only what the token route needs of the response; an interface keeps decorator metadata a plain Object. */
interface CookieSetter {
  cookie(name: string, value: string, options: CookieOptions): unknown
}

/** Machine-to-machine access of an organization: credentials and their exchange for a token. */
@injectable()
@JsonController('/v1/orgs')
@OpenAPI({ tags: ['Organizations'] })
export class ClientCredentialsController {
  public constructor(
    private readonly credentials: ClientCredentialsService,
    @inject(TOKENS.Config) private readonly config: Config,
  ) {}

  @Post('/:orgId/client_credentials')
  @HttpCode(201)
  @Authorized(ORG_ROLES.owner)
  @ResponseData(GENERATED_CLIENT_CREDENTIALS_SCHEMA)
  async generate(
    @Param('orgId') orgId: string,
    @CurrentUser() principal: Principal,
  ): Promise<Envelope<GeneratedClientCredentialsResponse>> {
    const createdBy = principal.kind === 'user' ? principal.userId : null
    return created(await this.credentials.generate(orgId, createdBy), 'Client credentials generated')
  }

  @Get('/:orgId/client_credentials')
  @Authorized(ORG_ROLES.members)
  @ResponseData(MASKED_CLIENT_CREDENTIALS_SCHEMA)
  async get(@Param('orgId') orgId: string): Promise<Envelope<MaskedClientCredentialsResponse>> {
    const credential = await this.credentials.getForOrg(orgId)
    return ok(
      {
        clientId: credential.clientId,
        clientSecret: maskSecret(credential.secretHint),
        createdAt: credential.updatedAt.toISOString(),
      },
      'Client credentials fetched',
    )
  }

  /** No token (spec: Authentication 6). 200 like an OAuth 2.0 token response (docs/decisions.md). */
  @Post('/:clientId/token')
  @HttpCode(200)
  @OpenAPI({ security: [] })
  @ResponseData(CLIENT_TOKEN_SCHEMA, { errors: [401, 429] })
  async token(
    @Param('clientId') clientId: string,
    @Body({ required: true }) body: ClientTokenDto,
    @ClientIp() clientIp: string,
    @Res() res: CookieSetter,
  ): Promise<Envelope<ClientTokenResponse>> {
    const session = await this.credentials.exchange(clientId, body.clientSecret, clientIp)
    res.cookie(SESSION_COOKIE, session.sessionId, {
      httpOnly: true,
      sameSite: 'strict',
      secure: !this.config.isEmbedded,
      maxAge: session.expiresIn * 1000,
      path: '/',
    })
    return ok(
      { access_token: session.accessToken, token_type: 'Bearer', expires_in: session.expiresIn },
      'Access token issued',
    )
  }
}
