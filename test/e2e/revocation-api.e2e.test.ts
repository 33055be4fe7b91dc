import { randomBytes, randomUUID } from 'node:crypto'
import { EntityManager, RequestContext } from '@mikro-orm/postgresql'
import request from 'supertest'
import type { AgentClient } from '../../api/src/agent-client/agent-client'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { RevocationRegistriesRepository } from '../../api/src/modules/revocations/revocation-registries.repository'
import { spawnAgent, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { legacyRevocationRegistryId } from '../helpers/indy-ids'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const AS_A_WALLET_DOES = { autoAcceptConnection: true, autoAcceptInvitation: true }

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const now = () => Math.floor(Date.now() / 1000)

/**
 * Issue 25 item 3 through the platform API, with the organization's agent the platform runs and a separate holder
 * agent, all on the platform ledger: a credential definition created with `revocable: true` gets its first registry
 * (REVOCATION_REGISTRY_SIZE 8 here); an INDY offer issues at an index the API allocated and the record shows it; the
 * holder proves non-revocation (verified); the credential is revoked (pending, then `revocations/publish`), the
 * record shows `revoked`, a `credential.revoked` webhook arrives, and the same proof (an API proof request with
 * `non_revoked`) no longer verifies, its error message saying revoked; one for an interval before the revocation
 * still does. Over Issue Credential v2 / Present Proof v2 with one holder, then over v1 / v1 with another.
 * DATABASE_URL / AMQP_URL choose PostgreSQL and RabbitMQ.
 */
describe('AnonCreds revocation through the platform API', () => {
  let platform: Platform
  let receiver: WebhookReceiver
  let holder: SpawnedAgent
  let holderV1: SpawnedAgent
  let owner: TestUser
  let orgId: string
  let connectionId: string
  let v1ConnectionId: string
  let definition: Json
  let credential: Json
  let v1Credential: Json

  const as = (user: TestUser) => ({
    get: (route: string) => request(platform.api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body?: object) => {
      const req = request(platform.api.app).post(route).set('Authorization', `Bearer ${user.token}`)
      return body === undefined ? req : req.send(body)
    },
  })

  async function orgAgent(): Promise<AgentClient> {
    const container = platform.api.runtime.container
    return RequestContext.create(container.get(EntityManager), () => container.get(AgentClients).forOrg(orgId))
  }

  /** The id the organization's agent registered the definition under (its did:indy id). */
  const agentCredDefId = () => (definition.credentialDefinitionDidIndyId ?? definition.credentialDefinitionId) as string

  beforeAll(async () => {
    buildPrograms()
    receiver = await startWebhookReceiver()
    platform = await startPlatform({ REVOCATION_REGISTRY_SIZE: '8' })
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Revoking Issuer', 'indy')
    holder = await spawnAgent({ label: 'revocation-holder', env: { AGENT_LEDGER_URL: platform.baseUrl } })
    holderV1 = await spawnAgent({ label: 'revocation-holder-v1', env: { AGENT_LEDGER_URL: platform.baseUrl } })
    await as(owner)
      .post(`/v1/webhooks/orgs/${orgId}/register`, { webhookUrl: `${receiver.url}/revocations` })
      .expect(201)
  }, 900_000)

  afterAll(async () => {
    await holder?.stop()
    await holderV1?.stop()
    await platform?.stop()
    await receiver?.stop()
  }, 120_000)

  it('creates a revocable credential definition and its first registry of REVOCATION_REGISTRY_SIZE', async () => {
    const schema = await as(owner)
      .post(`/v1/orgs/${orgId}/schemas`, {
        type: 'INDY',
        schemaPayload: {
          schemaName: `member-${randomBytes(3).toString('hex')}`,
          schemaVersion: '1.0',
          attributes: ['name', 'age'].map((name) => ({
            attributeName: name,
            schemaDataType: name === 'age' ? 'number' : 'string',
            displayName: name,
            isRequired: true,
          })),
        },
      })
      .expect(201)
    const created = await as(owner)
      .post(`/v1/orgs/${orgId}/cred-defs`, {
        tag: 'revocable',
        schemaLedgerId: schema.body.data.schemaLedgerId,
        revocable: true,
      })
      .expect(201)
    expect(created.body.data).toMatchObject({ status: 'creating', revocable: true })
    definition = await waitUntil(async () => {
      const current = (await as(owner).get(`/v1/orgs/${orgId}/cred-defs/${created.body.data.id}`).expect(200)).body
        .data as Json
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? current : undefined
    }, 600_000)
    expect(definition.revocable).toBe(true)
    const listed = await as(owner).get(`/v1/orgs/${orgId}/cred-defs?revocable=true`).expect(200)
    expect((listed.body.data.data as Json[]).map((entry) => entry.id)).toEqual([definition.id])

    const registries = await platform.api.runtime.container
      .get(RevocationRegistriesRepository)
      .forCredentialDefinition(orgId, definition.id as string)
    expect(registries.map((registry) => [registry.size, registry.state, registry.nextIndex])).toEqual([
      [8, 'active', 1],
    ])
    const onAgent = await (await orgAgent()).getRevocationRegistry(registries[0].revocationRegistryDefinitionId)
    expect(onAgent.revocationRegistryDefinition.value.maxCredNum).toBe(8)
    expect(onAgent.revocationRegistryDefinition.credDefId).toBe(agentCredDefId())
  })

  /** A connection of the organization with `agent` (as a wallet accepts an invitation). */
  async function connect(agent: SpawnedAgent): Promise<string> {
    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`, {}).expect(201)
    const { invitationUrl, outOfBandRecord } = invitation.body.data as Json
    await agent.call('POST', '/oob/receive-invitation-url', { invitationUrl, ...AS_A_WALLET_DOES })
    return waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const found = (page.body.data.connections as Json[]).find((item) => item.outOfBandId === outOfBandRecord.id)
      return found?.state === 'completed' ? (found.id as string) : undefined
    }, 90_000)
  }

  /** A credential offered over `protocolVersion`, accepted by `agent`: the API's record once done. */
  async function issue(agent: SpawnedAgent, connection: string, protocolVersion: 'v1' | 'v2', name: string) {
    const offered = await as(owner)
      .post(`/v1/orgs/${orgId}/credentials/offer?credentialType=INDY`, {
        credentialDefinitionId: definition.credentialDefinitionId,
        protocolVersion,
        credentialData: [
          {
            connectionId: connection,
            attributes: [
              { name: 'name', value: name },
              { name: 'age', value: '30' },
            ],
          },
        ],
      })
      .expect(201)
    const [record] = offered.body.data as Json[]
    expect(record).toMatchObject({ revoked: false, revocationStatus: null })
    expect(record.revocationRegistryId).toMatch(/REV_REG_DEF/)
    const received = await waitUntil(async () => {
      const list = await agent.call<{ data: Json[] }>('GET', `/credentials?threadId=${record.threadId}`)
      return list.body.data.find((entry) => entry.state === 'offer-received')
    }, 90_000)
    await agent.call('POST', '/credentials/accept-offer', { credentialRecordId: received.id })
    const done = await waitUntil(async () => {
      const current = (await as(owner).get(`/v1/orgs/${orgId}/credentials/${record.id}`).expect(200)).body.data as Json
      if (current.state === 'abandoned') throw new Error(`Abandoned: ${current.errorMessage}`)
      return current.state === 'done' ? current : undefined
    }, 120_000)
    expect(done).toMatchObject({
      revocationRegistryId: record.revocationRegistryId,
      revocationIndex: record.revocationIndex,
    })
    return done
  }

  it('issues at an index the API allocated', async () => {
    connectionId = await connect(holder)
    credential = await issue(holder, connectionId, 'v2', 'Alice')
    expect(credential.revocationIndex).toBe(1)
    const held = (await holder.call<{ data: Json[] }>('GET', '/anoncreds/credentials')).body.data
    expect(held.map((entry) => [entry.revocationRegistryId, entry.credentialRevocationId])).toEqual([
      [credential.revocationRegistryId, '1'],
    ])
  })

  interface Prover {
    agent: SpawnedAgent
    connectionId: string
    credential: Json
    protocolVersion: 'v1' | 'v2'
  }
  const v2Prover = (): Prover => ({ agent: holder, connectionId, credential, protocolVersion: 'v2' })
  const v1Prover = (): Prover => ({
    agent: holderV1,
    connectionId: v1ConnectionId,
    credential: v1Credential,
    protocolVersion: 'v1',
  })

  /**
   * A proof of the name with a non_revoked interval to `to`, requested over the prover's Present Proof version and
   * verified through the API: whether it verified and the reason the verified-proofs read gives.
   */
  async function prove(
    to: number,
    prover: Prover = v2Prover(),
  ): Promise<{ isVerified: boolean; errorMessage: string | null }> {
    const { agent } = prover
    const requested = await as(owner)
      .post(`/v1/orgs/${orgId}/proofs`, {
        connectionId: prover.connectionId,
        protocolVersion: prover.protocolVersion,
        proofFormats: {
          indy: {
            attributes: [{ attributeName: 'name', credDefId: definition.credentialDefinitionId }],
            non_revoked: { to },
          },
        },
      })
      .expect(201)
    const proof = requested.body.data as Json
    const received = await waitUntil(async () => {
      const list = await agent.call<{ data: Json[] }>('GET', `/proofs?threadId=${proof.threadId}`)
      return list.body.data.find((entry) => entry.state === 'request-received')
    }, 90_000)
    expect(received.protocolVersion).toBe(prover.protocolVersion)
    // The holder presents even a revoked credential (Credo's default leaves it out: nothing to answer with).
    const accepted = await agent.call('POST', '/proofs/accept-request', {
      proofRecordId: received.id,
      filterByNonRevocationRequirements: false,
    })
    expect(accepted.status).toBe(201)
    await waitUntil(async () => {
      const record = (await as(owner).get(`/v1/orgs/${orgId}/proofs/${proof.id}`).expect(200)).body.data as Json
      return ['presentation-received', 'done', 'abandoned'].includes(record.state) ? record : undefined
    }, 90_000)
    const verified = await as(owner).post(`/v1/orgs/${orgId}/proofs/${proof.id}/verify`).expect(201)
    // verified-proofs says which credential was checked for revocation, against which status list (v1: the legacy
    // identifiers the `indy` format carries).
    const read = (await as(owner).get(`/v1/orgs/${orgId}/verified-proofs/${proof.id}`).expect(200)).body.data as Json
    const v1 = prover.protocolVersion === 'v1'
    expect(read.revocationChecks).toEqual({
      nonRevoked: { from: null, to },
      credentials: [
        {
          credentialDefinitionId: v1 ? definition.credentialDefinitionId : agentCredDefId(),
          revocationRegistryId: v1
            ? legacyRevocationRegistryId(prover.credential.revocationRegistryId)
            : prover.credential.revocationRegistryId,
          statusListTimestamp: expect.any(Number),
          checkedAt: expect.any(String),
        },
      ],
    })
    expect(read.revocationChecks.credentials[0].statusListTimestamp).toBeLessThanOrEqual(to)
    expect(read.isVerified).toBe(verified.body.data.isVerified)
    return { isVerified: verified.body.data.isVerified as boolean, errorMessage: read.errorMessage as string | null }
  }

  let beforeRevocation: number

  it('proves non-revocation before the revocation (verified)', async () => {
    expect(await prove(now())).toEqual({ isVerified: true, errorMessage: null })
    beforeRevocation = now()
  })

  it('refuses to revoke an unknown record (404) and one not issued yet (400)', async () => {
    await as(owner).post(`/v1/orgs/${orgId}/credentials/${randomUUID()}/revoke`, {}).expect(404)
    const offered = await as(owner)
      .post(`/v1/orgs/${orgId}/credentials/offer?credentialType=INDY`, {
        credentialDefinitionId: definition.credentialDefinitionId,
        credentialData: [
          {
            connectionId,
            attributes: [
              { name: 'name', value: 'Bob' },
              { name: 'age', value: '40' },
            ],
          },
        ],
      })
      .expect(201)
    const [pending] = offered.body.data as Json[]
    expect(pending.revocationIndex).toBe(2)
    const refused = await as(owner).post(`/v1/orgs/${orgId}/credentials/${pending.id}/revoke`, {}).expect(400)
    expect(refused.body.message).toMatch(/not issued/)
    // Out-of-band offers allocate too (the next index).
    const oob = await as(owner)
      .post(`/v1/orgs/${orgId}/credentials/oob/offer?credentialType=INDY`, {
        credentialDefinitionId: definition.credentialDefinitionId,
        attributes: [
          { name: 'name', value: 'Carol' },
          { name: 'age', value: '50' },
        ],
      })
      .expect(201)
    expect(oob.body.data.record).toMatchObject({
      revocationIndex: 3,
      revocationRegistryId: pending.revocationRegistryId,
    })
  })

  it('records a revocation as pending, publishes it, shows it revoked and announces it', async () => {
    // Status lists are dated in seconds: the revocation lands after the proof above.
    await sleep(1100)
    const route = `/v1/orgs/${orgId}/credentials/${credential.id}/revoke`
    const pending = await as(owner).post(route, { publish: false }).expect(201)
    expect(pending.body.data).toMatchObject({ revoked: false, revocationStatus: 'pending', revocationIndex: 1 })
    await as(owner).post(route, { publish: false }).expect(409)

    const published = await as(owner).post(`/v1/orgs/${orgId}/revocations/publish`).expect(201)
    expect(published.body.data).toEqual([
      {
        revocationRegistryId: credential.revocationRegistryId,
        // One entry per registry or JSON-LD status list published; an AnonCreds registry's names no list.
        statusListCredential: null,
        revokedIndices: [1],
        credentialRecordIds: [credential.id],
      },
    ])
    const read = (await as(owner).get(`/v1/orgs/${orgId}/credentials/${credential.id}`).expect(200)).body.data
    expect(read).toMatchObject({ revoked: true, revocationStatus: 'revoked', revokedAt: expect.any(String) })
    const listed = (await as(owner).get(`/v1/orgs/${orgId}/credentials?pageSize=100`).expect(200)).body.data
    const entry = (listed.data as Json[]).find((item) => item.id === credential.id)
    expect(entry).toMatchObject({ revoked: true, revocationRegistryId: credential.revocationRegistryId })
    await as(owner).post(route, {}).expect(409)
    expect((await as(owner).post(`/v1/orgs/${orgId}/revocations/publish`).expect(201)).body.data).toEqual([])

    const onAgent = await (await orgAgent()).getRevocationRegistry(credential.revocationRegistryId)
    expect(onAgent.revokedIndices).toEqual([1])
    await receiver.waitFor(
      () => receiver.accepted('/revocations').some((delivery) => delivery.body?.data?.type === 'credential.revoked'),
      60_000,
      'the credential.revoked webhook',
    )
    const event = receiver
      .accepted('/revocations')
      .find((delivery) => delivery.body?.data?.type === 'credential.revoked')
    expect(event?.body?.data?.record).toMatchObject({ id: credential.id, revoked: true })
  })

  it('no longer verifies a proof of non-revocation of the revoked credential, and says it is revoked', async () => {
    await sleep(1100)
    const failed = await prove(now())
    expect(failed.isVerified).toBe(false)
    expect(failed.errorMessage).toMatch(/^Presentation does not verify: the credential is revoked/)
    expect(failed.errorMessage).toContain(`registry ${credential.revocationRegistryId} at`)
  })

  it('still verifies a proof for an interval that ends before the revocation', async () => {
    expect(await prove(beforeRevocation)).toEqual({ isVerified: true, errorMessage: null })
  })

  it('issues over Issue Credential v1 into the same registry: rev_reg_id (legacy), rev_reg and a witness', async () => {
    v1ConnectionId = await connect(holderV1)
    v1Credential = await issue(holderV1, v1ConnectionId, 'v1', 'Dave')
    // 1 to Alice, 2 and 3 to the offers above.
    expect(v1Credential).toMatchObject({ revocationIndex: 4, revocationRegistryId: credential.revocationRegistryId })
    const issued = v1Credential.agentDetail.formData.credential.indy as Json
    expect(issued).toMatchObject({
      cred_def_id: definition.credentialDefinitionId,
      rev_reg_id: legacyRevocationRegistryId(credential.revocationRegistryId),
      rev_reg: { accum: expect.any(String) },
      witness: { omega: expect.any(String) },
      signature: { r_credential: expect.any(Object) },
    })
    const held = (await holderV1.call<{ data: Json[] }>('GET', '/anoncreds/credentials')).body.data
    expect(held.map((entry) => [entry.revocationRegistryId, entry.credentialRevocationId])).toEqual([
      [legacyRevocationRegistryId(credential.revocationRegistryId), '4'],
    ])
  })

  let beforeV1Revocation: number

  it('proves non-revocation over Present Proof v1 (verified)', async () => {
    expect(await prove(now(), v1Prover())).toEqual({ isVerified: true, errorMessage: null })
    beforeV1Revocation = now()
  })

  it('revokes the v1 credential (published at once); its v1 proof fails, saying revoked', async () => {
    await sleep(1100)
    const revoked = await as(owner).post(`/v1/orgs/${orgId}/credentials/${v1Credential.id}/revoke`, {}).expect(201)
    expect(revoked.body.data).toMatchObject({ revoked: true, revocationStatus: 'revoked', revocationIndex: 4 })
    const onAgent = await (await orgAgent()).getRevocationRegistry(credential.revocationRegistryId)
    expect(onAgent.revokedIndices).toEqual([1, 4])
    await sleep(1100)
    const failed = await prove(now(), v1Prover())
    expect(failed.isVerified).toBe(false)
    expect(failed.errorMessage).toMatch(/^Presentation does not verify: the credential is revoked/)
    expect(failed.errorMessage).toContain(`registry ${legacyRevocationRegistryId(credential.revocationRegistryId)} at`)
  })

  it('still verifies a v1 proof for an interval that ends before the v1 revocation', async () => {
    expect(await prove(beforeV1Revocation, v1Prover())).toEqual({ isVerified: true, errorMessage: null })
  })
})
