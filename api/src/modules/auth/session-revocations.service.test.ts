import { UnauthenticatedError, silentLogger } from '@idplane/common'
import { FakeRevokedSessionsRepository, asDouble } from '../../../../test/helpers/auth-fakes'
import { loadConfig } from '../../infra/config'
import { authConfig } from './auth.config'
import { SessionRevocationsService } from './session-revocations.service'

const T0 = new Date('2026-11-24T10:00:00.000Z')

describe('SessionRevocationsService', () => {
  const config = loadConfig(
    {
      DATA_DIR: '/tmp/idplane-unit',
      SESSION_REVOCATION_REFRESH_MS: '2000',
      JWT_EXPIRES_IN_SECONDS: '600',
    },
    [authConfig],
  )
  let shared: FakeRevokedSessionsRepository
  let replicaA: SessionRevocationsService
  let replicaB: SessionRevocationsService
  const at = (ms: number) => jest.setSystemTime(new Date(T0.getTime() + ms))

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] })
    shared = new FakeRevokedSessionsRepository()
    replicaA = new SessionRevocationsService(config, asDouble(shared), silentLogger)
    replicaB = new SessionRevocationsService(config, asDouble(shared), silentLogger)
  })

  afterEach(() => {
    jest.useRealTimers()
  })

  it('refuses a session at once where it was revoked and on another replica once its copy is reloaded', async () => {
    await replicaB.assertActive('s1')
    await replicaA.revoke(['s1'], 'refresh-token-reuse')
    await expect(replicaA.assertActive('s1')).rejects.toBeInstanceOf(UnauthenticatedError)
    at(1999)
    await expect(replicaB.assertActive('s1')).resolves.toBeUndefined()
    at(2000)
    await expect(replicaB.assertActive('s1')).rejects.toThrow('Session has been revoked; sign in again')
    await expect(replicaB.assertActive('s2')).resolves.toBeUndefined()
  })

  it('reads the database at most once per interval, however many requests arrive', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => replicaB.assertActive(`s${i}`)))
    at(1000)
    await Promise.all(Array.from({ length: 50 }, (_, i) => replicaB.assertActive(`s${i}`)))
    expect(shared.queries).toBe(1)
    at(2500)
    await replicaB.assertActive('s1')
    expect(shared.queries).toBe(2)
  })

  it('keeps a revocation one access-token lifetime, then forgets it', async () => {
    await replicaA.revoke(['s1'], 'client-credentials-rotated')
    expect(shared.rows[0]?.expiresAt).toEqual(new Date(T0.getTime() + 600_000))
    at(600_000)
    await expect(replicaB.assertActive('s1')).resolves.toBeUndefined()
  })
})
