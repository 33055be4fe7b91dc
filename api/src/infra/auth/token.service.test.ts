import { generateKeyPairSync } from 'node:crypto'
import { UnauthenticatedError } from '@idplane/common'
import { TokenService } from './token.service'

function keyPair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
}

const keys = keyPair()

function aTokenService(overrides: Partial<ConstructorParameters<typeof TokenService>[0]> = {}): TokenService {
  return new TokenService({
    ...keys,
    keyDir: '/nonexistent',
    issuer: 'idplane',
    audience: 'idplane-api',
    accessTokenTtlSeconds: 60,
    refreshTokenTtlSeconds: 600,
    ...overrides,
  })
}

function expectRefused(verify: () => unknown, message: string): void {
  let refusal: unknown
  try {
    verify()
  } catch (error) {
    refusal = error
  }
  expect(refusal).toBeInstanceOf(UnauthenticatedError)
  expect((refusal as Error).message).toBe(message)
}

describe('TokenService.verify', () => {
  afterEach(() => jest.useRealTimers())

  it('answers the same principal for a token it has verified before', () => {
    const tokens = aTokenService()
    const { accessToken } = tokens.signForUser({ id: 'u1', email: 'u1@example.test' }, 's1')
    const first = tokens.verify(accessToken)
    expect(first).toEqual({ kind: 'user', userId: 'u1', email: 'u1@example.test', sessionId: 's1' })
    expect(tokens.verify(accessToken)).toEqual(first)
    const client = tokens.signForClient({ clientId: 'c1', orgId: 'o1' }, 's2').accessToken
    expect(tokens.verify(client)).toEqual({ kind: 'client', clientId: 'c1', orgId: 'o1', sessionId: 's2' })
    expect(tokens.verify(client)).toEqual({ kind: 'client', clientId: 'c1', orgId: 'o1', sessionId: 's2' })
  })

  it('refuses a token it verified once as soon as it expires', () => {
    jest.useFakeTimers({ now: new Date('2026-11-29T12:00:00Z') })
    const tokens = aTokenService()
    const { accessToken } = tokens.signForUser({ id: 'u1', email: 'u1@example.test' }, 's1')
    expect(tokens.verify(accessToken).sessionId).toBe('s1')
    jest.setSystemTime(new Date('2026-11-29T12:00:59Z'))
    expect(tokens.verify(accessToken).sessionId).toBe('s1')
    jest.setSystemTime(new Date('2026-11-29T12:01:00Z'))
    expectRefused(() => tokens.verify(accessToken), 'Access token has expired')
    // Still refused on the next call, now through the full verification.
    expectRefused(() => tokens.verify(accessToken), 'Access token has expired')
  })

  it("refuses another key's token and a token for another audience, also after a good one was kept", () => {
    const tokens = aTokenService()
    const good = tokens.signForUser({ id: 'u1', email: 'u1@example.test' }, 's1').accessToken
    tokens.verify(good)
    const foreign = aTokenService({ ...keyPair() }).signForUser({ id: 'u1', email: 'u1@example.test' }, 's1')
    expectRefused(() => tokens.verify(foreign.accessToken), 'Invalid access token')
    const otherAudience = aTokenService({ audience: 'someone-else' }).signForUser({ id: 'u1', email: 'e' }, 's1')
    expectRefused(() => tokens.verify(otherAudience.accessToken), 'Invalid access token')
    // A token that differs from a kept one in its signature alone is verified, and refused.
    const tampered = `${good.slice(0, -4)}${good.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    expectRefused(() => tokens.verify(tampered), 'Invalid access token')
  })
})
