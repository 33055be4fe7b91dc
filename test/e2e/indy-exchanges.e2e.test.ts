import { randomBytes } from 'node:crypto'
import { EntityManager, RequestContext } from '@mikro-orm/postgresql'
import request from 'supertest'
import type { AgentClient } from '../../api/src/agent-client/agent-client'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { credDefIdForms, schemaIdForms } from '@idplane/common/ledger-ids'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startPlatform, type Platform } from '../helpers/platform'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const ADMIN_EMAIL = 'indy-e2e-root@example.test'
const AS_A_WALLET_DOES = { autoAcceptConnection: true, autoAcceptInvitation: true }
const ATTRIBUTES = ['name', 'degree', 'age'] as const

interface Envelope<T> {
  data: T
}
type AgentRecord = Record<string, unknown> & { id: string; state: string; threadId: string }
interface Exchange {
  id: string
  state: string
  threadId: string | null
  errorMessage?: string | null
}
interface Definition {
  schemaId: string
  credentialDefinitionId: string
}
interface VerifiedProof {
  isVerified: boolean | null
  verificationStatus: string
  state: string
  revealed: Record<string, unknown>[]
  revealedAttributes: { referent: string; name: string; value: string }[]
  revealedAttributeGroups: { referent: string; values: Record<string, string> }[]
  predicates: { name: string; condition: string; value: number; statement: string; satisfied: boolean }[]
}

/**
 * Issue 13, item 6, end to end: an issuer and a verifier organization whose agents the platform runs, a separate
 * holder agent process driven through its admin API, and a cloud-wallet user. All agents use the platform ledger
 * (no test registry): the issuer organization is spun up with a did:indy, and its schemas and credential definitions
 * are written to the ledger by its agent (v1's with legacy identifiers, v2's under the did:indy; the API's own
 * schema and cred-def routes are tested in indy-definitions and ledger-indy). INDY credentials
 * go out over a connection (v1 with legacy identifiers, v2), out of band and by e-mail; the verifier asks for
 * revealed attributes, a group and predicates (v1, v2 to two connections, out of band) and verifies; a predicate the
 * holder cannot meet ends the exchange abandoned.
 */
describe('INDY issuance and proofs through the platform API', () => {
  let platform: Platform
  let smtp: SmtpCapture
  let holder: SpawnedAgent
  let base: SpawnedAgent
  let owner: TestUser
  let walletUser: TestUser
  let issuerOrg: string
  let verifierOrg: string
  const definitions: { v1: Definition; v2: Definition } = {
    v1: { schemaId: '', credentialDefinitionId: '' },
    v2: { schemaId: '', credentialDefinitionId: '' },
  }

  const as = (user: TestUser) => ({
    get: (route: string) => request(platform.api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body?: object) => {
      const req = request(platform.api.app).post(route).set('Authorization', `Bearer ${user.token}`)
      return body === undefined ? req : req.send(body)
    },
  })

  /** The issuer organization's agent, through the API's own client (inside a request context, as a job runs). */
  async function issuerAgent(): Promise<AgentClient> {
    const container = platform.api.runtime.container
    return RequestContext.create(container.get(EntityManager), () => container.get(AgentClients).forOrg(issuerOrg))
  }

  /**
   * A schema and a credential definition on the platform ledger: with legacy identifiers (the agent makes a did:indy
   * and uses its unqualified form, as the `indy` format of v1 requires), or under the organization's primary did:indy.
   */
  async function createDefinition(legacyIdentifiers: boolean): Promise<Definition> {
    const agent = await issuerAgent()
    const dids = await as(owner).get(`/v1/orgs/${issuerOrg}/dids`).expect(200)
    const primary = (dids.body.data as { did: string; isPrimaryDid: boolean }[]).find((did) => did.isPrimaryDid)?.did
    expect(primary).toMatch(/^did:indy:/)
    const schema = await agent.createAnonCredsSchema({
      name: `degree-${randomBytes(3).toString('hex')}`,
      version: '1.0',
      attributes: [...ATTRIBUTES],
      ...(legacyIdentifiers ? { legacyIdentifiers } : { issuerId: primary }),
    })
    const definition = await agent
      .withTimeout(300_000)
      .createAnonCredsCredentialDefinition({ schemaId: schema.schemaId, tag: 'default' })
    return { schemaId: schema.schemaId, credentialDefinitionId: definition.credentialDefinitionId }
  }

  beforeAll(async () => {
    buildPrograms()
    smtp = await startSmtpCapture()
    platform = await startPlatform({
      SMTP_URL: smtp.url,
      PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL,
    })
    owner = await aUserWithToken(platform.api)
    walletUser = await aUserWithToken(platform.api)
    issuerOrg = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    verifierOrg = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    // Every agent reads and writes AnonCreds objects on the platform ledger the API serves (no test registry).
    const registryEnv = { AGENT_LEDGER_URL: platform.baseUrl }
    // One at a time: on a loaded machine four agents starting at once miss their readiness deadlines.
    // The issuer's primary DID is a did:indy on the ledger (spin-up writes its NYM and endpoint).
    await platform.spinUp(issuerOrg, owner.token, 'Issuer Org', 'indy')
    await platform.spinUp(verifierOrg, owner.token, 'Verifier Org')
    holder = await spawnAgent({ label: 'indy-holder', env: registryEnv })
    // The base wallet's tenants' events keep the wallet lists (the wallet event route, its API key as token).
    base = await spawnAgent({
      label: 'indy-base',
      env: {
        ...registryEnv,
        AGENT_EVENT_URL: `${platform.baseUrl}${BASE_WALLET_EVENTS_PATH}`,
        AGENT_EVENT_TOKEN: TEST_API_KEY,
      },
    })
    definitions.v2 = await createDefinition(false)
    definitions.v1 = await createDefinition(true)
  }, 900_000)

  afterAll(async () => {
    await holder?.stop()
    await base?.stop()
    await platform?.stop()
    await smtp?.stop()
  }, 120_000)

  /** The holder takes an invitation URL; the organization's connection id once its record is `completed`. */
  async function connectHolder(orgId: string): Promise<string> {
    const created = await as(owner).post(`/v1/orgs/${orgId}/connections`, {}).expect(201)
    const { invitationUrl, outOfBandRecord } = created.body.data as {
      invitationUrl: string
      outOfBandRecord: { id: string }
    }
    expect(
      (await holder.call('POST', '/oob/receive-invitation-url', { invitationUrl, ...AS_A_WALLET_DOES })).status,
    ).toBe(201)
    return waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const found = (page.body.data.connections as { id: string; state: string; outOfBandId: string }[]).find(
        (item) => item.outOfBandId === outOfBandRecord.id,
      )
      return found?.state === 'completed' ? found.id : undefined
    }, 90_000)
  }

  async function holderAccepts(threadId: string): Promise<void> {
    const offer = await waitUntil(async () => {
      const list = await holder.call<Envelope<AgentRecord[]>>('GET', `/credentials?threadId=${threadId}`)
      return list.body.data.find((record) => record.state === 'offer-received')
    }, 90_000)
    expect((await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: offer.id })).status).toBe(201)
  }

  async function holderRequestOf(threadId: string): Promise<AgentRecord> {
    return waitUntil(async () => {
      const list = await holder.call<Envelope<AgentRecord[]>>('GET', `/proofs?threadId=${threadId}`)
      return list.body.data.find((record) => record.state === 'request-received')
    }, 90_000)
  }

  async function holderPresents(threadId: string): Promise<void> {
    const received = await holderRequestOf(threadId)
    expect((await holder.call('POST', '/proofs/accept-request', { proofRecordId: received.id })).status).toBe(201)
  }

  function recordReaches(route: string, states: string[]): Promise<Exchange> {
    return waitUntil(async () => {
      const record = (await as(owner).get(route).expect(200)).body.data as Exchange
      return states.includes(record.state) ? record : undefined
    }, 120_000)
  }

  /** Presentation received, verified through the API; the verified-proofs read. */
  async function verifiedProof(proofId: string): Promise<VerifiedProof> {
    const arrived = await recordReaches(`/v1/orgs/${verifierOrg}/proofs/${proofId}`, [
      'presentation-received',
      'done',
      'abandoned',
    ])
    expect(arrived.state).not.toBe('abandoned')
    const verified = await as(owner).post(`/v1/orgs/${verifierOrg}/proofs/${proofId}/verify`).expect(201)
    expect(verified.body.data.isVerified).toBe(true)
    return (await as(owner).get(`/v1/orgs/${verifierOrg}/verified-proofs/${proofId}`).expect(200)).body
      .data as VerifiedProof
  }

  const person = (name: string, degree: string, age: string, isRequired = true) => [
    { name: 'name', value: name, isRequired },
    { name: 'degree', value: degree, isRequired },
    { name: 'age', value: age, isRequired },
  ]

  let issuerConnection: string
  let verifierConnections: string[]

  it('connects the holder to the issuer and twice to the verifier', async () => {
    issuerConnection = await connectHolder(issuerOrg)
    verifierConnections = [await connectHolder(verifierOrg), await connectHolder(verifierOrg)]
    expect(new Set(verifierConnections).size).toBe(2)
  })

  it("refuses attributes that do not match the definition's schema, naming them, and unknown definitions", async () => {
    const offer = (body: object, query = '') =>
      as(owner).post(`/v1/orgs/${issuerOrg}/credentials/offer${query}`, {
        credentialDefinitionId: definitions.v2.credentialDefinitionId,
        ...body,
      })
    const missing = await offer({
      credentialData: [{ connectionId: issuerConnection, attributes: person('A', 'B', '1').slice(0, 2) }],
    }).expect(400)
    expect(missing.body.errors).toEqual([
      { field: 'credentialData[0].attributes', message: expect.stringContaining('"age"') },
    ])
    const unknown = await offer({
      credentialData: [
        { connectionId: issuerConnection, attributes: [...person('A', 'B', '1'), { name: 'shoeSize', value: '9' }] },
      ],
    }).expect(400)
    expect(unknown.body.errors).toEqual([
      { field: 'credentialData[0].attributes[3].name', message: expect.stringContaining('"shoeSize"') },
    ])
    const empty = await offer(
      { credentialData: [{ connectionId: issuerConnection, attributes: person('', 'B', '1') }] },
      '?credentialType=INDY',
    ).expect(400)
    expect(JSON.stringify(empty.body)).toContain('credentialData[0].attributes[0].value')
    await as(owner)
      .post(`/v1/orgs/${issuerOrg}/credentials/offer`, {
        credentialDefinitionId: `${definitions.v2.credentialDefinitionId}-absent`,
        credentialData: [{ connectionId: issuerConnection, attributes: person('A', 'B', '1') }],
      })
      .expect(404)
  })

  for (const protocolVersion of ['v2', 'v1'] as const) {
    it(`issues an INDY credential over the connection with protocol ${protocolVersion}`, async () => {
      const { credentialDefinitionId, schemaId } = definitions[protocolVersion]
      const offered = await as(owner)
        .post(`/v1/orgs/${issuerOrg}/credentials/offer`, {
          credentialDefinitionId,
          protocolVersion,
          // An optional attribute may be empty; here all are given.
          credentialData: [{ connectionId: issuerConnection, attributes: person('Alice', 'Bachelor of Arts', '25') }],
        })
        .expect(201)
      const [record] = offered.body.data as (Exchange & Record<string, unknown>)[]
      // Records name the definition and schema in the legacy form whichever form the offer used (issue 22 item 1).
      expect(record).toMatchObject({
        state: 'offer-sent',
        credentialType: 'INDY',
        credentialDefinitionId: credDefIdForms(credentialDefinitionId)?.legacy,
        schemaId: schemaIdForms(schemaId)?.legacy,
        protocolVersion,
      })
      await holderAccepts(record.threadId ?? '')
      await recordReaches(`/v1/orgs/${issuerOrg}/credentials/${record.id}`, ['done'])
    })
  }

  it('issues v1 from a definition written under the did:indy, named by either form of its id (issue 22 item 2)', async () => {
    const didIndyId = definitions.v2.credentialDefinitionId
    const parts = /^did:indy:[^:]+(?::[^:]+)*:([^:/]+)\/anoncreds\/v0\/CLAIM_DEF\/(\d+)\/(.+)$/.exec(didIndyId)
    expect(parts).not.toBeNull()
    const [, did, seqNo, tag] = parts ?? []
    const legacyId = `${did}:3:CL:${seqNo}:${tag}`

    // Through the API, with either form of the id: the offer goes out as v1 under the legacy id, and the issuer's
    // agent finds the key correctness proof and the private key stored under the did:indy id (this was 404 "Record
    // not found"). Alice's values again: the proofs below expect every credential the holder holds to be hers.
    for (const credentialDefinitionId of [legacyId, didIndyId]) {
      const offered = await as(owner)
        .post(`/v1/orgs/${issuerOrg}/credentials/offer`, {
          credentialDefinitionId,
          protocolVersion: 'v1',
          credentialData: [{ connectionId: issuerConnection, attributes: person('Alice', 'Bachelor of Arts', '25') }],
        })
        .expect(201)
      const [record] = offered.body.data as (Exchange & Record<string, unknown>)[]
      expect(record).toMatchObject({ state: 'offer-sent', protocolVersion: 'v1', credentialDefinitionId: legacyId })
      await holderAccepts(record.threadId ?? '')
      await recordReaches(`/v1/orgs/${issuerOrg}/credentials/${record.id}`, ['done'])
    }
  })

  /** Two revealed attributes, one group, two predicates, restricted to the definition of `protocolVersion`. */
  const attributesRequest = (protocolVersion: 'v1' | 'v2', minimumAge = '18') => {
    const { credentialDefinitionId: credDefId, schemaId } = definitions[protocolVersion]
    return {
      protocolVersion,
      proofFormats: {
        indy: {
          attributes: [
            { attributeName: 'name', credDefId },
            { attributeName: 'degree', schemaId },
            { attributeNames: ['name', 'degree'], credDefId },
            { attributeName: 'age', condition: '>=', value: minimumAge, credDefId },
            { attributeName: 'age', condition: '<', value: '100', schemaId },
          ],
        },
      },
    }
  }

  function expectRevealed(proof: VerifiedProof): void {
    expect(proof).toMatchObject({ isVerified: true, verificationStatus: 'verified' })
    expect(proof.revealedAttributes.map((attribute) => [attribute.name, attribute.value]).sort()).toEqual([
      ['degree', 'Bachelor of Arts'],
      ['name', 'Alice'],
    ])
    expect(proof.revealedAttributeGroups).toHaveLength(1)
    expect(proof.revealedAttributeGroups[0].values).toEqual({ name: 'Alice', degree: 'Bachelor of Arts' })
    expect(proof.predicates.map((predicate) => predicate.statement).sort()).toEqual(['age < 100', 'age >= 18'])
    expect(proof.predicates.every((predicate) => predicate.satisfied)).toBe(true)
    expect(proof.revealed[0]).toMatchObject({ name: 'Alice', degree: 'Bachelor of Arts' })
  }

  for (const protocolVersion of ['v1', 'v2'] as const) {
    it(`verifies revealed attributes, a group and predicates over Present Proof ${protocolVersion}`, async () => {
      // The holder holds one credential of each definition so far (Alice's Bachelor of Arts): the values are known.
      const body = attributesRequest(protocolVersion)
      const requested = await as(owner)
        .post(`/v1/orgs/${verifierOrg}/proofs`, { connectionId: verifierConnections[0], ...body })
        .expect(201)
      const proof = requested.body.data as Exchange
      expect(proof.state).toBe('request-sent')
      expect(requested.body.data).toMatchObject({ protocolVersion, requestType: 'INDY' })
      await holderPresents(proof.threadId ?? '')
      expectRevealed(await verifiedProof(proof.id))
    })
  }

  it('issues out of band through a short link', async () => {
    const offered = await as(owner)
      .post(`/v1/orgs/${issuerOrg}/credentials/oob/offer`, {
        credentialDefinitionId: definitions.v2.credentialDefinitionId,
        attributes: person('Alice', 'Master of Arts', '25'),
        isShortenUrl: true,
      })
      .expect(201)
    const { shortUrl, invitationUrl, record } = offered.body.data as {
      shortUrl: string
      invitationUrl: string
      record: Exchange
    }
    expect(invitationUrl).toContain('oob=')
    expect(shortUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/)
    expect(
      (await holder.call('POST', '/oob/receive-invitation-url', { invitationUrl: shortUrl, ...AS_A_WALLET_DOES }))
        .status,
    ).toBe(201)
    await holderAccepts(record.threadId ?? '')
    await recordReaches(`/v1/orgs/${issuerOrg}/credentials/${record.id}`, ['done'])
  })

  it('issues by e-mail: one mail per address, whose link works in the holder', async () => {
    const emailId = `graduate-${randomBytes(4).toString('hex')}@example.test`
    const other = `other-${randomBytes(4).toString('hex')}@example.test`
    const offered = await as(owner)
      .post(`/v1/orgs/${issuerOrg}/credentials/oob/email?credentialType=INDY`, {
        credentialDefinitionId: definitions.v2.credentialDefinitionId,
        credentialOffer: [
          { emailId, attributes: person('Alice', 'Doctor of Arts', '25') },
          { emailId: other, attributes: person('Carol', 'Doctor of Arts', '40') },
        ],
      })
      .expect(201)
    const [{ record }] = offered.body.data as { record: Exchange }[]
    const mail = await smtp.waitForMail(emailId, { timeoutMs: 30_000 })
    expect(mail.html).toContain('data:image/png;base64,')
    await smtp.waitForMail(other, { timeoutMs: 30_000 })
    const link = /(http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
    expect(link).toBeDefined()
    expect(
      (await holder.call('POST', '/oob/receive-invitation-url', { invitationUrl: link, ...AS_A_WALLET_DOES })).status,
    ).toBe(201)
    await holderAccepts(record.threadId ?? '')
    await recordReaches(`/v1/orgs/${issuerOrg}/credentials/${record.id}`, ['done'])
    const listed = await as(owner).get(`/v1/orgs/${issuerOrg}/credentials/${record.id}`).expect(200)
    expect(listed.body.data).toMatchObject({
      credentialDefinitionId: credDefIdForms(definitions.v2.credentialDefinitionId)?.legacy,
      schemaId: schemaIdForms(definitions.v2.schemaId)?.legacy,
      emailId,
    })
  })

  it('sends a v2 request to two connections; both verify', async () => {
    const body = attributesRequest('v2')
    body.proofFormats.indy.attributes = body.proofFormats.indy.attributes.filter((_, index) => index !== 1)
    const requested = await as(owner)
      .post(`/v2/orgs/${verifierOrg}/proofs?requestType=INDY`, { connectionId: verifierConnections, ...body })
      .expect(201)
    const proofs = requested.body.data as Exchange[]
    expect(proofs).toHaveLength(2)
    for (const proof of proofs) {
      await holderPresents(proof.threadId ?? '')
      const shown = await verifiedProof(proof.id)
      expect(shown.isVerified).toBe(true)
      expect(shown.predicates).toHaveLength(2)
    }
  })

  it('verifies an out-of-band request with requested_attributes and requested_predicates via its short link', async () => {
    const restrictions = [{ cred_def_id: definitions.v1.credentialDefinitionId }]
    const requested = await as(owner)
      .post(`/v1/orgs/${verifierOrg}/proofs/oob`, {
        proofFormats: {
          indy: {
            name: 'Degree check',
            version: '1.0',
            requested_attributes: {
              name: { name: 'name', restrictions },
              degree: { name: 'degree', restrictions: [{ schema_id: definitions.v1.schemaId }] },
              both: { names: ['name', 'degree'], restrictions },
            },
            requested_predicates: {
              adult: { name: 'age', p_type: '>=', p_value: 18, restrictions },
              young: { name: 'age', p_type: '<=', p_value: 30, restrictions },
            },
          },
        },
      })
      .expect(201)
    const [{ invitationUrl, proofRecord }] = requested.body.data as { invitationUrl: string; proofRecord: Exchange }[]
    expect(invitationUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/)
    expect(
      (await holder.call('POST', '/oob/receive-invitation-url', { invitationUrl, ...AS_A_WALLET_DOES })).status,
    ).toBe(201)
    await holderPresents(proofRecord.threadId ?? '')
    const shown = await verifiedProof(proofRecord.id)
    expect(shown.revealedAttributes.map((attribute) => attribute.value).sort()).toEqual(['Alice', 'Bachelor of Arts'])
    expect(shown.predicates.map((predicate) => predicate.statement).sort()).toEqual(['age <= 30', 'age >= 18'])
  })

  it('ends a request whose predicate the holder cannot meet as abandoned, and the record shows it', async () => {
    const requested = await as(owner)
      .post(`/v1/orgs/${verifierOrg}/proofs`, {
        connectionId: verifierConnections[1],
        ...attributesRequest('v2', '200'),
      })
      .expect(201)
    const proof = requested.body.data as Exchange
    const received = await holderRequestOf(proof.threadId ?? '')
    expect((await holder.call('POST', '/proofs/accept-request', { proofRecordId: received.id })).status).toBe(409)
    const ended = await recordReaches(`/v1/orgs/${verifierOrg}/proofs/${proof.id}`, ['abandoned'])
    expect(ended.errorMessage).toBeTruthy()
    const shown = (await as(owner).get(`/v1/orgs/${verifierOrg}/verified-proofs/${proof.id}`).expect(200)).body
      .data as VerifiedProof
    expect(shown).toMatchObject({ state: 'abandoned', isVerified: null, verificationStatus: 'abandoned' })
    expect(shown.predicates).toEqual([])
  })

  it('a cloud-wallet user accepts an INDY offer and answers an INDY proof request', async () => {
    const admin = await aUserWithToken(platform.api, ADMIN_EMAIL)
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-indy' })
      .expect(201)
    await as(walletUser).post('/v1/create-wallet', { label: 'Wallet user' }).expect(201)
    const connectWallet = async (orgId: string) => {
      const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`, {}).expect(201)
      await as(walletUser)
        .post('/v1/receive-invitation-url', { invitationUrl: invitation.body.data.invitationUrl })
        .expect(201)
      return waitUntil(async () => {
        const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
        const items = page.body.data.connections as { id: string; state: string; outOfBandId: string }[]
        return items.find(
          (item) => item.outOfBandId === invitation.body.data.outOfBandRecord.id && item.state === 'completed',
        )?.id
      }, 90_000)
    }
    const issuerSide = await connectWallet(issuerOrg)
    const verifierSide = await connectWallet(verifierOrg)

    const offered = await as(owner)
      .post(`/v1/orgs/${issuerOrg}/credentials/offer`, {
        credentialDefinitionId: definitions.v1.credentialDefinitionId,
        protocolVersion: 'v1',
        credentialData: [{ connectionId: issuerSide, attributes: person('Dana', 'Bachelor of Science', '33') }],
      })
      .expect(201)
    const [issued] = offered.body.data as Exchange[]
    const walletOffer = await waitUntil(async () => {
      const list = await as(walletUser).get(`/v1/credential?threadId=${issued.threadId}`).expect(200)
      return (list.body.data as AgentRecord[]).find((record) => record.state === 'offer-received')
    }, 90_000)
    // The options under `anoncreds` although a v1 offer is in the `indy` format: the agent moves them.
    await as(walletUser)
      .post('/v1/accept-offer', {
        credentialRecordId: walletOffer.id,
        autoAcceptCredential: 'always',
        credentialFormats: { anoncreds: {} },
      })
      .expect(201)
    await recordReaches(`/v1/orgs/${issuerOrg}/credentials/${issued.id}`, ['done'])

    const requested = await as(owner)
      .post(`/v1/orgs/${verifierOrg}/proofs`, {
        connectionId: verifierSide,
        proofFormats: {
          indy: {
            attributes: [
              { attributeName: 'name', credDefId: definitions.v1.credentialDefinitionId },
              { attributeName: 'age', condition: '>', value: '30', credDefId: definitions.v1.credentialDefinitionId },
            ],
          },
        },
      })
      .expect(201)
    const proof = requested.body.data as Exchange
    const walletRequest = await waitUntil(async () => {
      const list = await as(walletUser).get(`/v1/proofs?threadId=${proof.threadId}`).expect(200)
      return (list.body.data as AgentRecord[]).find((record) => record.state === 'request-received')
    }, 90_000)
    await as(walletUser)
      .post('/v1/proofs/accept-request', {
        proofRecordId: walletRequest.id,
        filterByPresentationPreview: true,
        filterByNonRevocationRequirements: false,
      })
      .expect(201)
    const shown = await verifiedProof(proof.id)
    expect(shown.revealedAttributes).toEqual([{ referent: 'attribute_0', name: 'name', value: 'Dana' }])
    expect(shown.predicates.map((predicate) => predicate.statement)).toEqual(['age > 30'])
  })
})
