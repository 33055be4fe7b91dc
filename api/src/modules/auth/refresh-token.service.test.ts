import { UnauthenticatedError, silentLogger } from '@idplane/common'
import {
  FakeRefreshTokensRepository,
  FakeRevokedSessionsRepository,
  asDouble,
} from '../../../../test/helpers/auth-fakes'
import { loadConfig } from '../../infra/config'
import { User } from '../users/user.entity'
import { RefreshTokenService } from './refresh-token.service'
import { SessionRevocationsService } from './session-revocations.service'
import { sha256Hex } from './secrets'

const T0 = new Date('2026-11-21T10:00:00.000Z')
const TTL_SECONDS = 3600

describe('RefreshTokenService', () => {
  const user = Object.assign(new User(), { email: 'alice@example.test' })
  let tokens: FakeRefreshTokensRepository
  let revocations: FakeRevokedSessionsRepository
  let sessions: SessionRevocationsService
  let sut: RefreshTokenService

  const config = loadConfig({ DATA_DIR: '/tmp/idplane-unit', JWT_REFRESH_EXPIRES_IN_SECONDS: String(TTL_SECONDS) })
  const at = (seconds: number) => jest.setSystemTime(new Date(T0.getTime() + seconds * 1000))
  const rowOf = (token: string) => tokens.rows.find((row) => row.tokenHash === sha256Hex(token))

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] })
    tokens = new FakeRefreshTokensRepository([user])
    revocations = new FakeRevokedSessionsRepository()
    sessions = new SessionRevocationsService(config, asDouble(revocations), silentLogger)
    sut = new RefreshTokenService(config, asDouble(tokens), sessions, silentLogger)
  })

  afterEach(() => {
    jest.useRealTimers()
  })

  it('issues a random base64url token and stores only its sha256, with the configured lifetime', async () => {
    const token = await sut.issue(user.id, 'family-1')
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(tokens.rows).toHaveLength(1)
    expect(tokens.rows[0]).toMatchObject({
      tokenHash: sha256Hex(token),
      familyId: 'family-1',
      expiresAt: new Date(T0.getTime() + TTL_SECONDS * 1000),
    })
  })

  it('rotates: hands out a successor in the same family, marks the old one used, keeps the family expiry', async () => {
    const first = await sut.issue(user.id, 'family-1')
    at(60)
    const rotated = await sut.rotate(first)
    expect(rotated).toMatchObject({ user, familyId: 'family-1' })
    expect(rotated.refreshToken).not.toBe(first)
    expect(rowOf(first)?.usedAt).toEqual(new Date(T0.getTime() + 60_000))
    expect(rowOf(rotated.refreshToken)).toMatchObject({
      familyId: 'family-1',
      expiresAt: new Date(T0.getTime() + TTL_SECONDS * 1000),
    })
    const third = await sut.rotate(rotated.refreshToken)
    expect(third.familyId).toBe('family-1')
  })

  it('treats a used token presented again as theft: revokes the whole family', async () => {
    const first = await sut.issue(user.id, 'family-1')
    const other = await sut.issue(user.id, 'family-2')
    const second = (await sut.rotate(first)).refreshToken
    await expect(sut.rotate(first)).rejects.toThrow('Refresh token was already used')
    expect(tokens.rows.filter((row) => row.familyId === 'family-1').every((row) => row.revokedAt)).toBe(true)
    // The session ends too: access tokens carrying the family as `sid` are refused from now on.
    expect(revocations.rows.map((row) => row.sessionId)).toEqual(['family-1'])
    await expect(sessions.assertActive('family-1')).rejects.toThrow('Session has been revoked')
    await expect(sut.rotate(second)).rejects.toThrow('Refresh token has been revoked')
    // Another session of the same user is not touched.
    await expect(sut.rotate(other)).resolves.toMatchObject({ familyId: 'family-2' })
  })

  it('treats losing a race for the same token as reuse', async () => {
    const first = await sut.issue(user.id, 'family-1')
    const row = rowOf(first)
    if (!row) throw new Error('token not stored')
    // Another replica marked it used between our read and our update.
    const markUsed = tokens.markUsed.bind(tokens)
    jest.spyOn(tokens, 'markUsed').mockImplementationOnce(async (token, when) => {
      await markUsed(token, when)
      return false
    })
    await expect(sut.rotate(first)).rejects.toThrow('Refresh token was already used')
    expect(row.revokedAt).toBeDefined()
  })

  it('refuses an expired token', async () => {
    const first = await sut.issue(user.id, 'family-1')
    at(TTL_SECONDS)
    await expect(sut.rotate(first)).rejects.toThrow('Refresh token has expired')
  })

  it('refuses an unknown token with 401 semantics', async () => {
    await expect(sut.rotate('nope')).rejects.toBeInstanceOf(UnauthenticatedError)
  })
})
