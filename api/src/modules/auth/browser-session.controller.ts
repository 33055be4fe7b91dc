import type { CookieOptions } from 'express'
import { inject, injectable } from 'inversify'
import { Body, CookieParam, Delete, HttpCode, JsonController, Post, Res } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { InvalidInputError, UnauthenticatedError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { done, ok, type Envelope } from '../../infra/http/envelope'
import { ClientIp } from '../../infra/rate-limit/client-ip'
import { ResponseData } from '../../infra/http/response-doc'
import { messageOnly } from '../../infra/http/data-schema'
import { AuthService } from './auth.service'
import { SignInDto } from './dto/sign-in.dto'
import {
  BROWSER_SESSION_SCHEMA,
  toBrowserSessionResponse,
  type BrowserSessionResponse,
  type IssuedSession,
} from './dto/sign-in.response'

/** The cookie that carries a browser session's refresh token; attributes in docs/decisions.md ("Console sessions"). */
export const REFRESH_COOKIE = 'idplane_refresh'
/** The cookie is sent to these routes only, never with the API calls that carry the access token. */
export const BROWSER_SESSION_PATH = '/v1/auth/session'

/** The cookie in the OpenAPI document (routing-controllers-openapi leaves cookie parameters out). */
const REFRESH_COOKIE_PARAMETER = {
  in: 'cookie' as const,
  name: REFRESH_COOKIE,
  required: false,
  schema: { type: 'string' as const },
  description: 'The refresh token, set by sign-in and refresh; HttpOnly, so a browser sends it without script',
}

/** Only what the routes need of the response; an interface keeps decorator metadata a plain Object. */
interface CookieWriter {
  cookie(name: string, value: string, options: CookieOptions): unknown
  clearCookie(name: string, options: CookieOptions): unknown
}

/**
 * Browser sessions (an extension of spec: Authentication 3 and 4, for the web console): the same sign-in and
 * rotating refresh as /signin and /refresh-token, but the refresh token lives in an HttpOnly, SameSite=Strict
 * cookie limited to these routes, so script (and an injected script) can never read it, and sign-out ends the
 * session on the server.
 */
@injectable()
@JsonController(BROWSER_SESSION_PATH)
@OpenAPI({ tags: ['Authentication'] })
export class BrowserSessionController {
  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly auth: AuthService,
  ) {}

  @Post('')
  @HttpCode(200)
  @OpenAPI({ summary: 'Sign in a browser: the access token in the body, the refresh token in an HttpOnly cookie' })
  @ResponseData(BROWSER_SESSION_SCHEMA, { errors: [401, 429] })
  async signIn(
    @Body() body: SignInDto,
    @ClientIp() clientIp: string,
    @Res() res: CookieWriter,
  ): Promise<Envelope<BrowserSessionResponse>> {
    const session = await this.auth.signIn(body.email, body.password, clientIp)
    return ok(this.answer(res, session), 'Signed in')
  }

  @Post('/refresh')
  @HttpCode(200)
  @OpenAPI({
    summary: "Renew the access token with the session cookie (rotates the cookie's refresh token)",
    parameters: [REFRESH_COOKIE_PARAMETER],
  })
  @ResponseData(BROWSER_SESSION_SCHEMA, { errors: [401, 429] })
  async refresh(
    // Declared `string` for the parameter's metadata (a union reflects as Object, which the pipeline refuses); it is
    // undefined when the browser sent no cookie.
    @CookieParam(REFRESH_COOKIE, { required: false }) presented: string,
    @ClientIp() clientIp: string,
    @Res() res: CookieWriter,
  ): Promise<Envelope<BrowserSessionResponse>> {
    // Like /auth/refresh-token without its body field: the request lacks its credential (400), which is not a token
    // that failed (401).
    if (!presented) {
      throw new InvalidInputError('No browser session: sign in', [
        { field: REFRESH_COOKIE, message: 'cookie is missing' },
      ])
    }
    try {
      return ok(this.answer(res, await this.auth.refresh(presented, clientIp)), 'Token refreshed')
    } catch (error) {
      // A cookie that no longer works is dropped, so the browser stops presenting it.
      if (error instanceof UnauthenticatedError) res.clearCookie(REFRESH_COOKIE, this.cookieOptions())
      throw error
    }
  }

  @Delete('')
  @OpenAPI({
    summary: 'Sign out: end the session (its refresh and access tokens) and drop the cookie',
    parameters: [REFRESH_COOKIE_PARAMETER],
  })
  @ResponseData(messageOnly, { errors: [429] })
  async signOut(
    @CookieParam(REFRESH_COOKIE, { required: false }) presented: string,
    @ClientIp() clientIp: string,
    @Res() res: CookieWriter,
  ): Promise<Envelope<never>> {
    if (presented) await this.auth.signOut(presented, clientIp)
    res.clearCookie(REFRESH_COOKIE, this.cookieOptions())
    return done('Signed out')
  }

  private answer(res: CookieWriter, session: IssuedSession): BrowserSessionResponse {
    const maxAge = Math.max(0, session.refreshExpiresAt.getTime() - Date.now())
    res.cookie(REFRESH_COOKIE, session.refreshToken, { ...this.cookieOptions(), maxAge })
    return toBrowserSessionResponse(session)
  }

  /** Secure whenever the platform is served over https; embedded mode on plain http needs it off. */
  private cookieOptions(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.config.http.publicUrl.startsWith('https:'),
      path: BROWSER_SESSION_PATH,
    }
  }
}
