import { inject, injectable } from 'inversify'
import { Body, Get, HttpCode, JsonController, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { created, done, ok, type Envelope } from '../../infra/http/envelope'
import { ClientIp } from '../../infra/rate-limit/client-ip'
import { toUserResponse, type UserResponse } from '../users/dto/user.response'
import { AuthService } from './auth.service'
import { toClientAliasResponse, type ClientAliasResponse } from './client-aliases'
import { EmailVerificationService } from './email-verification.service'
import { ClientAliasQuery } from './dto/client-alias.query'
import { RefreshTokenDto } from './dto/refresh-token.dto'
import { SignInDto } from './dto/sign-in.dto'
import { toSignInResponse, type SignInResponse } from './dto/sign-in.response'
import { SignUpDto } from './dto/sign-up.dto'
import { VerificationMailDto } from './dto/verification-mail.dto'
import { VerifyEmailQuery } from './dto/verify-email.query'
import { ResponseData } from '../../infra/http/response-doc'
import { arrayOf, messageOnly } from '../../infra/http/data-schema'
import { USER_SCHEMA } from '../users/dto/user.response'
import { SIGN_IN_SCHEMA } from './dto/sign-in.response'
import { CLIENT_ALIAS_SCHEMA } from './client-aliases'

/** Spec: Endpoints, Authentication and users (the /auth routes); none of them needs a token. */
@injectable()
@JsonController('/v1/auth')
@OpenAPI({ tags: ['Authentication'] })
export class AuthController {
  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly auth: AuthService,
    private readonly verifications: EmailVerificationService,
  ) {}

  @Post('/verification-mail')
  @HttpCode(201)
  @ResponseData(messageOnly, { errors: [429, 502] })
  async sendVerificationMail(
    @Body() body: VerificationMailDto,
    @QueryParams() query: ClientAliasQuery,
    @ClientIp() clientIp: string,
  ): Promise<Envelope<never>> {
    await this.verifications.sendVerificationMail(body.email, query.clientAlias, clientIp)
    return done('Verification mail sent', 201)
  }

  @Get('/verify')
  @ResponseData(messageOnly, { errors: [429] })
  async verify(@QueryParams() query: VerifyEmailQuery, @ClientIp() clientIp: string): Promise<Envelope<never>> {
    await this.verifications.verify(query.email, query.verificationCode, clientIp)
    return done('Email address verified')
  }

  @Post('/signup')
  @HttpCode(201)
  @ResponseData(USER_SCHEMA, { errors: [409, 429] })
  async signUp(@Body() body: SignUpDto, @ClientIp() clientIp: string): Promise<Envelope<UserResponse>> {
    return created(toUserResponse(await this.auth.signUp(body, clientIp)), 'User created')
  }

  @Post('/signin')
  @HttpCode(200)
  @ResponseData(SIGN_IN_SCHEMA, { errors: [401, 429] })
  async signIn(@Body() body: SignInDto, @ClientIp() clientIp: string): Promise<Envelope<SignInResponse>> {
    return ok(toSignInResponse(await this.auth.signIn(body.email, body.password, clientIp)), 'Signed in')
  }

  @Post('/refresh-token')
  @HttpCode(200)
  @ResponseData(SIGN_IN_SCHEMA, { errors: [401, 429] })
  async refresh(@Body() body: RefreshTokenDto, @ClientIp() clientIp: string): Promise<Envelope<SignInResponse>> {
    return ok(toSignInResponse(await this.auth.refresh(body.refreshToken, clientIp)), 'Token refreshed')
  }

  @Get('/clientAliases')
  @ResponseData(arrayOf(CLIENT_ALIAS_SCHEMA))
  clientAliases(): Envelope<ClientAliasResponse[]> {
    return ok(this.config.clientAliases.map(toClientAliasResponse), 'Client aliases')
  }
}
