import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import jwt, { type JwtPayload } from 'jsonwebtoken'
import { BoundedMap, ConfigError, UnauthenticatedError } from '@idplane/common'
import type { Config } from '../config'

/** Who is calling: a signed-in user, or an organization's machine-to-machine client. */
export type Principal =
  | { kind: 'user'; userId: string; email: string; sessionId: string }
  | { kind: 'client'; clientId: string; orgId: string; sessionId: string }

export interface IssuedAccessToken {
  accessToken: string
  expiresIn: number
}

interface TokenClaims extends JwtPayload {
  typ: 'user' | 'client'
  email?: string
  org?: string
  sid: string
}

interface VerifiedToken {
  principal: Principal
  /** The token's `exp`, seconds since the epoch. */
  expiresAt: number
}

/** Verified tokens kept (least recently used dropped): about 1 KB each with its key. */
const VERIFIED_TOKENS_KEPT = 4096

/**
 * RS256 access tokens. Keys come from configuration; embedded mode generates a pair once and keeps it under
 * DATA_DIR/jwt so tokens survive restarts.
 */
export class TokenService {
  public readonly publicKey: string
  /**
   * The keys parsed once: given a PEM string, jsonwebtoken parses it on every call (createPublicKey), which was a
   * measurable share of the API's CPU per request (docs/benchmarks.md). The keys never change in a running process.
   */
  private readonly signingKey: KeyObject
  private readonly verifyingKey: KeyObject
  /**
   * Tokens that verified, with what they say: a client sends the same token with every request until it expires, and
   * RS256 verification was about a tenth of the API's CPU for an authenticated read (docs/benchmarks.md). A token is
   * only ever here after its signature, issuer and audience checked out; its expiry is checked on every use.
   */
  private readonly verified = new BoundedMap<string, VerifiedToken>(VERIFIED_TOKENS_KEPT)

  public constructor(private readonly config: Config['jwt']) {
    const keys =
      config.privateKey && config.publicKey
        ? { privateKey: config.privateKey, publicKey: config.publicKey }
        : loadOrCreateKeyPair(config.keyDir)
    this.publicKey = keys.publicKey
    try {
      this.signingKey = createPrivateKey(keys.privateKey)
      this.verifyingKey = createPublicKey(keys.publicKey)
    } catch (error) {
      throw new ConfigError('JWT_PRIVATE_KEY / JWT_PUBLIC_KEY: not a PEM key pair', { cause: error })
    }
  }

  public get accessTokenTtlSeconds(): number {
    return this.config.accessTokenTtlSeconds
  }

  public signForUser(user: { id: string; email: string }, sessionId: string): IssuedAccessToken {
    return this.sign({ typ: 'user', email: user.email, sid: sessionId }, user.id)
  }

  public signForClient(client: { clientId: string; orgId: string }, sessionId: string): IssuedAccessToken {
    return this.sign({ typ: 'client', org: client.orgId, sid: sessionId }, client.clientId)
  }

  /** @throws UnauthenticatedError for a missing, malformed, expired or wrongly signed token */
  public verify(token: string): Principal {
    const known = this.verified.get(token)
    if (known) {
      // jsonwebtoken's rule: expired from the second `exp` names.
      if (Math.floor(Date.now() / 1000) < known.expiresAt) return known.principal
      this.verified.delete(token)
      throw new UnauthenticatedError('Access token has expired')
    }
    const { principal, expiresAt } = this.verifyUnknown(token)
    this.verified.set(token, { principal, expiresAt })
    return principal
  }

  private verifyUnknown(token: string): VerifiedToken {
    let claims: TokenClaims
    try {
      claims = jwt.verify(token, this.verifyingKey, {
        algorithms: ['RS256'],
        issuer: this.config.issuer,
        audience: this.config.audience,
      }) as TokenClaims
    } catch (error) {
      const expired = (error as Error).name === 'TokenExpiredError'
      throw new UnauthenticatedError(expired ? 'Access token has expired' : 'Invalid access token', { cause: error })
    }
    // Every token this service signs expires (sign sets expiresIn); one without `exp` is not ours.
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number')
      throw new UnauthenticatedError('Invalid access token')
    const expiresAt = claims.exp
    if (claims.typ === 'user' && typeof claims.email === 'string') {
      return { principal: { kind: 'user', userId: claims.sub, email: claims.email, sessionId: claims.sid }, expiresAt }
    }
    if (claims.typ === 'client' && typeof claims.org === 'string') {
      return {
        principal: { kind: 'client', clientId: claims.sub, orgId: claims.org, sessionId: claims.sid },
        expiresAt,
      }
    }
    throw new UnauthenticatedError('Invalid access token')
  }

  private sign(claims: Omit<TokenClaims, 'sub'>, subject: string): IssuedAccessToken {
    const expiresIn = this.config.accessTokenTtlSeconds
    const accessToken = jwt.sign(claims, this.signingKey, {
      algorithm: 'RS256',
      expiresIn,
      subject,
      issuer: this.config.issuer,
      audience: this.config.audience,
      jwtid: randomUUID(),
    })
    return { accessToken, expiresIn }
  }
}

function loadOrCreateKeyPair(dir: string): { privateKey: string; publicKey: string } {
  const privatePath = path.join(dir, 'private.pem')
  const publicPath = path.join(dir, 'public.pem')
  if (existsSync(privatePath) && existsSync(publicPath)) {
    return { privateKey: readFileSync(privatePath, 'utf8'), publicKey: readFileSync(publicPath, 'utf8') }
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  writeFileSync(privatePath, privateKey, { mode: 0o600 })
  writeFileSync(publicPath, publicKey)
  return { privateKey, publicKey }
}
