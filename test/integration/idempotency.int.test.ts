import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import request, { type Response } from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { mailDirectory } from '../../api/src/infra/mail/file-mailer'
import { IdempotencyKeysRepository } from '../../api/src/infra/http/idempotency/idempotency-keys.repository'
import { startApi, type TestApi } from '../helpers/api'
import { claimAgentPorts } from '../helpers/ports'
import { waitForMail } from '../helpers/auth-flow'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { aDegreeCredential, signingOptions } from '../fixtures/degree-credential'

jest.setTimeout(60_000)

function aJsonLdEntry(issuer: string) {
  return {
    credential: aDegreeCredential(issuer, 'did:key:z6MkHolder'),
    options: signingOptions('Ed25519Signature2018'),
  }
}

const presentationDefinition = {
  id: 'degree',
  input_descriptors: [
    {
      id: 'degree',
      schema: [{ uri: 'https://www.w3.org/2018/credentials/examples/v1' }],
      constraints: { fields: [{ path: ['$.credentialSubject.degree.type'] }] },
    },
  ],
}

/** Mails written for `email` (embedded FileMailer), after the queue had time to deliver any second one. */
async function mailCount(dataDir: string, email: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  try {
    return (await readdir(mailDirectory(dataDir, email))).filter((name) => name.endsWith('.json')).length
  } catch {
    return 0
  }
}

/**
 * Issue 23 item 9: `Idempotency-Key` on creating POSTs, through the API and a real organization agent: a retry gets
 * the first answer and acts no more (one offer, one mail), another request under the key is a 422, concurrent ones
 * act once.
 */
describe('Idempotency-Key on creating POSTs', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let issuerDid: string

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` })
  const post = (path: string, body: object, key?: string, token = owner.token) => {
    const req = request(api.app).post(path).set(auth(token))
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body)
  }
  const totalOf = async (path: string): Promise<number> =>
    (await request(api.app).get(path).set(auth(owner.token)).expect(200)).body.data.totalItems as number
  const expectReplay = (first: Response, again: Response) => {
    expect(again.status).toBe(first.status)
    expect(again.body).toEqual(first.body)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(first.headers['idempotent-replayed']).toBeUndefined()
  }

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      // 2.5 minutes for the agent to start: on this shared machine (load above 20) it took longer than 45 s.
      AGENT_POLL_ATTEMPTS: '300',
      AGENT_POLL_INTERVAL_MS: '500',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      // A concurrent retry is answered at once (409) instead of waiting for the first: the race is then visible.
      IDEMPOTENCY_WAIT_MS: '0',
    })
    owner = await aUserWithToken(api, `owner-${randomUUID()}@example.test`)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await post(`/v1/orgs/${orgId}/agents/spinup`, { label: 'Issuer', method: 'key' }).expect(201)
    const deadline = Date.now() + 200_000
    for (;;) {
      const health = await request(api.app).get(`/v1/orgs/${orgId}/agents/health`).set(auth(owner.token))
      const status = (health.body.data as { status: string }).status
      if (status === 'DID_CREATED') break
      if (status === 'FAILED' || Date.now() > deadline)
        throw new Error(`Agent ended in ${JSON.stringify(health.body.data)}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const dids = await request(api.app).get(`/v1/orgs/${orgId}/dids`).set(auth(owner.token))
    issuerDid = (dids.body.data as { did: string }[])[0].did
  }, 240_000)

  afterAll(async () => {
    await api?.stop()
    compiled?.remove()
  }, 60_000)

  it('sends one e-mail offer for a retried credentials/oob/email and answers the retry with the first answer', async () => {
    const emailId = `holder-${randomUUID().slice(0, 8)}@example.test`
    const path = `/v1/orgs/${orgId}/credentials/oob/email?credentialType=JSONLD`
    const body = { comment: 'Mail', credentialOffer: [{ emailId, ...aJsonLdEntry(issuerDid) }] }
    const key = randomUUID()
    const before = await totalOf(`/v1/orgs/${orgId}/credentials?pageSize=100`)
    const first = await post(path, body, key)
    expect(first.status).toBe(201)
    await waitForMail(api.dataDir, emailId)
    const again = await post(path, body, key)
    expectReplay(first, again)
    expect(await mailCount(api.dataDir, emailId)).toBe(1)
    expect(await totalOf(`/v1/orgs/${orgId}/credentials?pageSize=100`)).toBe(before + 1)

    // The same key with another body is refused and sends nothing; a new key acts.
    const other = { ...body, comment: 'Another mail' }
    const mismatch = await post(path, other, key)
    expect(mismatch.status).toBe(422)
    expect(mismatch.body).toEqual(expect.objectContaining({ statusCode: 422, error: 'Unprocessable Content' }))
    expect(await mailCount(api.dataDir, emailId)).toBe(1)
    const previous = await waitForMail(api.dataDir, emailId)
    expect((await post(path, other, randomUUID())).status).toBe(201)
    await waitForMail(api.dataDir, emailId, { previousId: previous.id })
    expect(await mailCount(api.dataDir, emailId)).toBe(2)
  })

  it('keeps one answer per key for credential offers, proof requests and connection invitations', async () => {
    // A connection invitation makes no connection record until a holder answers: its replay is the same invitation.
    const cases: [string, object, string | undefined][] = [
      [
        `/v1/orgs/${orgId}/credentials/oob/offer?credentialType=JSONLD`,
        aJsonLdEntry(issuerDid),
        `/v1/orgs/${orgId}/credentials?pageSize=100`,
      ],
      [
        `/v1/orgs/${orgId}/proofs/oob?requestType=PRESENTATIONEXCHANGE`,
        { presentationDefinition, label: 'Bank' },
        `/v1/orgs/${orgId}/proofs?pageSize=100`,
      ],
      [`/v1/orgs/${orgId}/connections`, { label: 'Idempotent' }, undefined],
    ]
    for (const [path, body, list] of cases) {
      const key = randomUUID()
      const before = list === undefined ? 0 : await totalOf(list)
      const first = await post(path, body, key)
      expect({ path, status: first.status }).toEqual({ path, status: 201 })
      expectReplay(first, await post(path, body, key))
      if (list !== undefined) expect({ path, records: await totalOf(list) }).toEqual({ path, records: before + 1 })
    }
    const invitation = await post(`/v1/orgs/${orgId}/connections`, { label: 'Idempotent' }, randomUUID())
    const fresh = await post(`/v1/orgs/${orgId}/connections`, { label: 'Idempotent' }, randomUUID())
    expect(fresh.body.data.invitationUrl).not.toBe(invitation.body.data.invitationUrl)
  })

  it('lets one of two concurrent requests with one key act; the other gets 409 or the same answer', async () => {
    const path = `/v1/orgs/${orgId}/credentials/oob/offer?credentialType=JSONLD`
    const body = aJsonLdEntry(issuerDid)
    const key = randomUUID()
    const before = await totalOf(`/v1/orgs/${orgId}/credentials?pageSize=100`)
    const answers = await Promise.all([post(path, body, key), post(path, body, key)])
    const acted = answers.filter((answer) => answer.status === 201 && !answer.headers['idempotent-replayed'])
    expect(acted).toHaveLength(1)
    const [other] = answers.filter((answer) => !acted.includes(answer))
    if (other?.status === 409) expect(other.body.message).toMatch(/still in progress/)
    else expect(other?.body).toEqual(acted[0]?.body)
    expect(await totalOf(`/v1/orgs/${orgId}/credentials?pageSize=100`)).toBe(before + 1)
    // Once the first answered, a retry gets its answer.
    expectReplay(acted[0] as Response, await post(path, body, key))
  })

  it('scopes keys by organization and caller, and leaves requests without a key or a token alone', async () => {
    const schema = (name: string) => ({
      type: 'JSON',
      schemaPayload: {
        schemaName: name,
        schemaType: 'NO_LEDGER',
        attributes: [{ attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true }],
      },
    })
    const key = randomUUID()
    const body = schema(`Badge ${randomUUID().slice(0, 8)}`)
    const first = await post(`/v1/orgs/${orgId}/schemas`, body, key)
    expect(first.status).toBe(201)
    expectReplay(first, await post(`/v1/orgs/${orgId}/schemas`, body, key))

    // The same key in another organization is another key there.
    const otherOwner = await aUserWithToken(api)
    const otherOrg = await anOrganizationWith(api, [{ user: otherOwner, roles: ['owner'] }])
    const elsewhere = await post(`/v1/orgs/${otherOrg}/schemas`, body, key, otherOwner.token)
    expect(elsewhere.status).toBe(201)
    expect(elsewhere.body.data.id).not.toBe(first.body.data.id)

    // Another member of the organization cannot read an answer under someone else's key: it is another request.
    const admin = await aUserWithToken(api)
    const shared = await anOrganizationWith(api, [
      { user: owner, roles: ['owner'] },
      { user: admin, roles: ['admin'] },
    ])
    const mine = await post(`/v1/orgs/${shared}/schemas`, body, key)
    expect(mine.status).toBe(201)
    expect((await post(`/v1/orgs/${shared}/schemas`, body, key, admin.token)).status).toBe(422)

    // Without a token the route answers as always (401), and nothing is kept for the key.
    const anonymous = await request(api.app).post(`/v1/orgs/${orgId}/schemas`).set('Idempotency-Key', key).send(body)
    expect(anonymous.status).toBe(401)
    // A malformed key is a 400 naming the header; without a key a second request acts again (409: same name).
    const malformed = await post(`/v1/orgs/${orgId}/schemas`, body, 'has spaces')
    expect(malformed.status).toBe(400)
    expect(malformed.body.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })])
    expect((await post(`/v1/orgs/${orgId}/schemas`, body)).status).toBe(409)
  })

  it('prunes expired keys and takes over a pending one whose request died', async () => {
    const store = new IdempotencyKeysRepository(api.runtime.container.get(EntityManager))
    const scope = `org:${randomUUID()}`
    const past = new Date(Date.now() - 1_000)
    const claim = await store.claim(scope, 'k', 'f', past, new Date(0))
    expect(claim.kind).toBe('claimed')
    // Expired: the next claim takes the key over (another request may use it now).
    expect((await store.claim(scope, 'k', 'g', new Date(Date.now() + 60_000), new Date(0))).kind).toBe('claimed')
    await store.claim(scope, 'old', 'f', past, new Date(0))
    expect(await store.deleteExpired(new Date())).toBeGreaterThanOrEqual(1)
    const rows = await api.runtime.container
      .get(EntityManager)
      .getConnection()
      .execute<{ key: string }[]>('select "key" from "idempotency_keys" where "scope" = ?', [scope])
    expect(rows.map((row) => row.key)).toEqual(['k'])

    // A pending key whose request died (older than the pending timeout) is claimed again.
    const stuck = await store.claim(scope, 'stuck', 'f', new Date(Date.now() + 60_000), new Date(0))
    expect(stuck.kind).toBe('claimed')
    expect((await store.claim(scope, 'stuck', 'f', new Date(Date.now() + 60_000), new Date(0))).kind).toBe('taken')
    expect((await store.claim(scope, 'stuck', 'f', new Date(Date.now() + 60_000), new Date(Date.now() + 1))).kind).toBe(
      'claimed',
    )
  })
})
