import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Express } from 'express'
import request from 'supertest'
import { silentLogger } from '@idplane/common'
import { createApp } from '../../api/src/app'
import { createRuntime, type Runtime } from '../../api/src/container'
import { loadConfig, type Config } from '../../api/src/infra/config'
import { TEST_SCRYPT_LOG_N } from '../helpers/api'
import { deleteApiQueues } from '../helpers/broker'
import { signUpAndSignIn, type SignedUpUser } from '../helpers/auth-flow'
import { freshDatabase, type FreshDatabase } from '../helpers/database'

/** The bound: a revoked session is refused on every replica within this time. */
const REVOCATION_BOUND_MS = 5_000

interface Instance {
  app: Express
  runtime: Runtime
  dataDir: string
}

/**
 * Two API instances on one PostgreSQL database, as two replicas behind a load balancer: same signing keys,
 * own data directories (queue), one mail directory so that the sign-up helper finds every mail. Replicas
 * need PostgreSQL (embedded PGlite is one process by design), so this file uses it in both test modes.
 *
 * routing-controllers resolves controllers through one global container (the last createApp's), so the
 * routes of both apps run B's services while each app's authorization checker asks its own container's
 * revocation cache. The change is therefore written by B's services and noted in B's cache, and A's
 * checker learns it only from the database: the cross-replica path. Both apps are checked.
 */
async function startReplicas(): Promise<{ a: Instance; b: Instance; mailDir: string; stop(): Promise<void> }> {
  const database: FreshDatabase = await freshDatabase('postgres')
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  const mailDir = mkdtempSync(path.join(tmpdir(), 'idplane-replicas-mail-'))
  const queuePrefix = `test-${randomBytes(4).toString('hex')}.`
  const start = async (): Promise<Instance> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-replica-'))
    const loaded = loadConfig({
      DATA_DIR: dataDir,
      AMQP_URL: process.env.AMQP_URL,
      QUEUE_NAME_PREFIX: queuePrefix,
      JWT_PRIVATE_KEY: keys.privateKey,
      JWT_PUBLIC_KEY: keys.publicKey,
      SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LOG_LEVEL: 'error',
    })
    const config: Config = {
      ...loaded,
      database: database.target,
      isEmbedded: false,
      mail: { kind: 'file', dir: mailDir, from: loaded.mail.from },
    }
    const runtime = await createRuntime(config, silentLogger, { passwordHashLogN: TEST_SCRYPT_LOG_N })
    return { app: createApp(runtime.container), runtime, dataDir }
  }
  const a = await start()
  const b = await start()
  return {
    a,
    b,
    mailDir,
    stop: async () => {
      await a.runtime.close()
      await b.runtime.close()
      await deleteApiQueues(queuePrefix)
      await database.drop()
      for (const dir of [a.dataDir, b.dataDir, mailDir]) rmSync(dir, { recursive: true, force: true })
    },
  }
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/** Milliseconds until `route` answers 401 on the instance, polling every 100 ms; fails past the bound. */
async function msUntilRefused(app: Express, token: string, route: string): Promise<number> {
  const started = Date.now()
  for (;;) {
    const res = await request(app).get(route).set(bearer(token))
    if (res.status === 401) return Date.now() - started
    // Anything else (200, or 404 for a deleted organization) means the token was still accepted.
    if (res.status >= 500) throw new Error(`${route} answered ${res.status}`)
    if (Date.now() - started > REVOCATION_BOUND_MS + 2_000) {
      throw new Error(`${route} still accepted the token ${Date.now() - started} ms after revocation`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('revoked sessions on two API instances', () => {
  let replicas: Awaited<ReturnType<typeof startReplicas>>
  let owner: SignedUpUser

  beforeAll(async () => {
    replicas = await startReplicas()
    owner = await signUpAndSignIn(replicas.a.app, replicas.mailDir, `owner-${randomUUID()}@example.test`)
  })

  // Two runtimes to close (each may wait for its queue's handlers) on a loaded machine.
  afterAll(async () => {
    await replicas?.stop()
  }, 120_000)

  const anOrganizationOf = async (user: SignedUpUser): Promise<string> => {
    const res = await request(replicas.a.app)
      .post('/v1/orgs')
      .set(bearer(user.accessToken))
      .send({ name: `Org ${randomUUID().slice(0, 8)}`, description: 'Sessions test' })
      .expect(201)
    return res.body.data.id
  }

  const clientToken = async (app: Express, clientId: string, clientSecret: string): Promise<string> => {
    const res = await request(app).post(`/v1/orgs/${clientId}/token`).send({ clientSecret }).expect(200)
    return res.body.data.access_token
  }

  it('refuses the access tokens of a family revoked by refresh-token reuse on A, on B within 5 s', async () => {
    const user = await signUpAndSignIn(replicas.a.app, replicas.mailDir, `user-${randomUUID()}@example.test`)
    await request(replicas.b.app).get('/v1/orgs').set(bearer(user.accessToken)).expect(200)
    const refreshed = await request(replicas.a.app)
      .post('/v1/auth/refresh-token')
      .send({ refreshToken: user.refreshToken })
      .expect(200)
    const successor: string = refreshed.body.data.access_token
    await request(replicas.b.app).get('/v1/orgs').set(bearer(successor)).expect(200)

    // The first refresh token presented again: reuse, the whole family is revoked.
    await request(replicas.a.app).post('/v1/auth/refresh-token').send({ refreshToken: user.refreshToken }).expect(401)

    expect(await msUntilRefused(replicas.a.app, user.accessToken, '/v1/orgs')).toBeLessThan(REVOCATION_BOUND_MS)
    expect(await msUntilRefused(replicas.b.app, user.accessToken, '/v1/orgs')).toBeLessThan(REVOCATION_BOUND_MS)
    expect(await msUntilRefused(replicas.b.app, successor, '/v1/orgs')).toBeLessThan(REVOCATION_BOUND_MS)
    // Another session of the same user is untouched.
    const again = await request(replicas.b.app)
      .post('/v1/auth/signin')
      .send({ email: user.email, password: user.password })
      .expect(200)
    await request(replicas.a.app).get('/v1/orgs').set(bearer(again.body.data.access_token)).expect(200)
  })

  it('refuses M2M tokens of rotated client credentials (rotated on A) on B within 5 s', async () => {
    const orgId = await anOrganizationOf(owner)
    const first = await request(replicas.a.app)
      .post(`/v1/orgs/${orgId}/client_credentials`)
      .set(bearer(owner.accessToken))
      .expect(201)
    const oldToken = await clientToken(replicas.b.app, first.body.data.clientId, first.body.data.clientSecret)
    await request(replicas.b.app).get(`/v1/orgs/${orgId}`).set(bearer(oldToken)).expect(200)

    const rotated = await request(replicas.a.app)
      .post(`/v1/orgs/${orgId}/client_credentials`)
      .set(bearer(owner.accessToken))
      .expect(201)

    expect(await msUntilRefused(replicas.a.app, oldToken, `/v1/orgs/${orgId}`)).toBeLessThan(REVOCATION_BOUND_MS)
    expect(await msUntilRefused(replicas.b.app, oldToken, `/v1/orgs/${orgId}`)).toBeLessThan(REVOCATION_BOUND_MS)
    const newToken = await clientToken(replicas.b.app, rotated.body.data.clientId, rotated.body.data.clientSecret)
    await request(replicas.b.app).get(`/v1/orgs/${orgId}`).set(bearer(newToken)).expect(200)
  })

  it('refuses M2M tokens of an organization deleted on A on B within 5 s (401, not a 404 for the org)', async () => {
    const orgId = await anOrganizationOf(owner)
    const credentials = await request(replicas.a.app)
      .post(`/v1/orgs/${orgId}/client_credentials`)
      .set(bearer(owner.accessToken))
      .expect(201)
    const token = await clientToken(replicas.b.app, credentials.body.data.clientId, credentials.body.data.clientSecret)
    await request(replicas.b.app).get(`/v1/orgs/${orgId}`).set(bearer(token)).expect(200)

    await request(replicas.a.app).delete(`/v1/orgs/${orgId}`).set(bearer(owner.accessToken)).expect(200)

    expect(await msUntilRefused(replicas.a.app, token, `/v1/orgs/${orgId}`)).toBeLessThan(REVOCATION_BOUND_MS)
    expect(await msUntilRefused(replicas.b.app, token, `/v1/orgs/${orgId}`)).toBeLessThan(REVOCATION_BOUND_MS)
  })
})
