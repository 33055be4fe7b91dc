import { randomBytes, randomUUID } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { Logger, NotFoundError, UnauthenticatedError } from '@idplane/common'
import { PasswordHasher } from '../../infra/auth/password-hasher'
import { TokenService } from '../../infra/auth/token.service'
import { isUuid } from '../../infra/auth/authorization'
import { RateLimiter, rateLimitKey } from '../../infra/rate-limit/rate-limiter'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { authConfig, type AuthConfig } from '../auth/auth.config'
import { TOKENS } from '../../infra/tokens'
import type { ClientCredential } from './client-credential.entity'
import { ClientCredentialsRepository } from './client-credentials.repository'
import { SessionRevocationsService } from '../auth/session-revocations.service'

/** Shown in place of the secret on read; the last four characters help tell rotated secrets apart. */
export const SECRET_MASK = '••••••••'

/** Characters of the secret kept in clear as a hint (client_credentials.secret_hint). */
export const SECRET_HINT_LENGTH = 4

/** Rate-limit counter of token exchanges per client address (its own counter, RATE_LIMIT_CLIENT_* rule). */
export const TOKEN_RATE_LIMIT_SCOPE = 'client-token'

/** One message for an unknown client id and a wrong secret, so neither can be probed. */
const INVALID_CLIENT = 'Invalid client credentials'

export interface GeneratedClientCredentials {
  clientId: string
  clientSecret: string
}

export interface ClientSession {
  accessToken: string
  expiresIn: number
  /** The token's `sid` (the client id: the credential is the session), also the `session_id` cookie. */
  sessionId: string
}

/** `••••••••abcd` for a secret ending in `abcd` (docs/decisions.md, Organizations). */
export function maskSecret(hint: string): string {
  return `${SECRET_MASK}${hint.slice(-SECRET_HINT_LENGTH)}`
}

/** A new secret: 32 random bytes, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url')
}

/** Machine-to-machine credentials of an organization (spec: Authentication 7) and their token exchange. */
@injectable()
export class ClientCredentialsService {
  private readonly logger: Logger
  /** A hash verified when the client id is unknown, so that answer takes as long as a wrong secret. */
  private decoyHash?: Promise<string>

  private readonly auth: AuthConfig

  public constructor(
    private readonly credentials: ClientCredentialsRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly rateLimiter: RateLimiter,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
    private readonly sessions: SessionRevocationsService,
  ) {
    this.auth = sectionOf(config, authConfig)
    this.logger = logger.child({ component: 'client-credentials' })
  }

  /**
   * Generates a client id and secret for the organization, replacing (rotating) any earlier pair: the old
   * secret stops working at once. The secret is stored only as a scrypt hash and returned only here.
   * @throws NotFoundError when the organization does not exist
   */
  public async generate(orgId: string, createdBy: string | null): Promise<GeneratedClientCredentials> {
    const clientId = randomUUID()
    const clientSecret = generateSecret()
    const secretHash = await this.hasher.hash(clientSecret)
    const secretHint = clientSecret.slice(-SECRET_HINT_LENGTH)
    const stored = await this.credentials.replaceForOrg(
      orgId,
      { clientId, secretHash, secretHint, createdBy },
      (previous) =>
        // Tokens of the old credential end with it (its client id is their session id).
        this.sessions.revoke([previous.clientId], 'client-credentials-rotated'),
    )
    if (!stored) throw new NotFoundError('Organization not found')
    this.logger.info('Generated ClientCredential', { orgId, clientId })
    return { clientId, clientSecret }
  }

  /** @throws NotFoundError when the organization has no client credentials */
  public async getForOrg(orgId: string): Promise<ClientCredential> {
    const credential = await this.credentials.findForOrg(orgId)
    if (!credential) throw new NotFoundError('Client credentials not found')
    return credential
  }

  /**
   * The client_credentials grant: a token scoped to the client's organization; its session is the credential.
   * Limited per client address before any hashing: each attempt costs a memory-hard scrypt verification.
   * @throws RateLimitedError past RATE_LIMIT_CLIENT_MAX attempts per window from one address
   * @throws UnauthenticatedError with one message for an unknown client id and a wrong secret
   */
  public async exchange(clientId: string, clientSecret: string, clientIp: string): Promise<ClientSession> {
    await this.rateLimiter.enforce(
      [{ key: rateLimitKey(TOKEN_RATE_LIMIT_SCOPE, clientIp), rule: this.auth.clientLimit }],
      'Too many token requests; try again later',
    )
    const credential = isUuid(clientId) ? await this.credentials.findByClientId(clientId) : null
    if (!credential) {
      await this.hasher.verify(clientSecret, await this.decoy(), clientIp)
      throw new UnauthenticatedError(INVALID_CLIENT)
    }
    if (!(await this.hasher.verify(clientSecret, credential.secretHash, clientIp)))
      throw new UnauthenticatedError(INVALID_CLIENT)
    // The session is the credential: rotating it or deleting the organization revokes every token it issued.
    const sessionId = clientId
    const orgId = credential.organization.id
    const { accessToken, expiresIn } = this.tokens.signForClient({ clientId, orgId }, sessionId)
    this.logger.info('Issued client access token', { orgId, clientId })
    return { accessToken, expiresIn, sessionId }
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.hasher.hash(generateSecret())
    return this.decoyHash
  }
}
