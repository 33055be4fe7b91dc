import { legacyRevocationRegistryId } from '../helpers/indy-ids'
import type { LedgerAgent } from '../helpers/ledger-agent'
import { sleep, startRevocationAgents, waitFor, type RevocationAgents } from '../helpers/revocation-agents'
import { claimAgentPorts } from '../helpers/ports'

jest.setTimeout(120_000)

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const now = () => Math.floor(Date.now() / 1000)

/**
 * Issue 25 item 3, agent side: two real agents (Credo with our AnonCreds services) on the platform ledger of a real
 * API, driven through their admin APIs. The issuer makes a revocable credential definition and a registry of 8 (its
 * tails file stored by the platform), issues two credentials at indices it names, and the holder proves
 * non-revocation (Present Proof v2, `anoncreds` format); after a revocation is published the revoked credential's
 * proof fails, the other's holds (`from` = `to`, as Credo holders ask), and an interval ending before the revocation
 * still verifies. DATABASE_URL chooses PostgreSQL.
 */

describe(`AnonCreds revocation between two agents (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let agents: RevocationAgents
  let issuer: LedgerAgent
  let holder: LedgerAgent
  let issuerConnectionId: string
  let credentialDefinitionId: string
  let registryId: string
  let beforeRevocation: number

  beforeAll(async () => {
    agents = await startRevocationAgents(await claimAgentPorts(), 'revoc')
    ;({ issuer, holder, issuerConnectionId } = agents)
  }, 120_000)

  afterAll(() => agents?.stop())

  async function issue(name: string, index: number, protocolVersion: 'v1' | 'v2' = 'v2') {
    const offer = await issuer
      .post('/credentials/offer', {
        connectionId: issuerConnectionId,
        protocolVersion,
        autoAcceptCredential: 'always',
        credentialFormats: {
          anoncreds: {
            credentialDefinitionId,
            attributes: [
              { name: 'name', value: name },
              { name: 'age', value: '30' },
            ],
            revocationRegistryDefinitionId: registryId,
            revocationRegistryIndex: index,
          },
        },
      })
      .expect(201)
    const threadId = offer.body.data.threadId as string
    const received = await waitFor(async () => {
      const [record] = (await holder.get(`/credentials?threadId=${threadId}`).expect(200)).body.data as Json[]
      return record?.state === 'offer-received' ? record : undefined
    }, 'the offer')
    await holder.post('/credentials/accept-offer', { credentialRecordId: received.id, autoAcceptCredential: 'always' })
    await waitFor(async () => {
      const record = (await holder.get(`/credentials/${received.id}`).expect(200)).body.data as Json
      if (record.state === 'abandoned') throw new Error(`issuance abandoned: ${record.errorMessage}`)
      const issued = (await issuer.get(`/credentials/${offer.body.data.id}`).expect(200)).body.data as Json
      if (issued.state === 'abandoned') throw new Error(`issuance abandoned by the issuer: ${issued.errorMessage}`)
      return record.state === 'done' ? record : undefined
    }, 'the credential')
    return offer.body.data.id as string
  }

  /** Requests a proof of `name` with a non_revoked interval; answers the verifier's result, or the holder's refusal. */
  async function prove(
    name: string | undefined,
    interval: { from?: number; to: number },
    filterByNonRevocationRequirements: boolean | 'absent' = false,
  ) {
    const requested = await issuer
      .post('/proofs/request', {
        connectionId: issuerConnectionId,
        proofFormats: {
          anoncreds: {
            requested_attributes: {
              name: {
                name: 'name',
                restrictions: [
                  name === undefined
                    ? { cred_def_id: credentialDefinitionId }
                    : { cred_def_id: credentialDefinitionId, 'attr::name::value': name },
                ],
              },
            },
            requested_predicates: {
              adult: {
                name: 'age',
                p_type: '>=',
                p_value: 18,
                restrictions: [{ cred_def_id: credentialDefinitionId }],
              },
            },
            non_revoked: interval,
          },
        },
      })
      .expect(201)
    const proofRecordId = requested.body.data.id as string
    const threadId = requested.body.data.threadId as string
    const received = await waitFor(async () => {
      const [record] = (await holder.get(`/proofs?threadId=${threadId}`).expect(200)).body.data as Json[]
      return record?.state === 'request-received' ? record : undefined
    }, 'the proof request')
    const accepted = await holder.post('/proofs/accept-request', {
      proofRecordId: received.id,
      ...(filterByNonRevocationRequirements === 'absent' ? {} : { filterByNonRevocationRequirements }),
    })
    if (accepted.status !== 201) return { refused: accepted.body.message as string }
    await waitFor(async () => {
      const record = (await issuer.get(`/proofs/${proofRecordId}`).expect(200)).body.data as Json
      return ['presentation-received', 'done', 'abandoned'].includes(record.state) ? record : undefined
    }, 'the presentation')
    const verified = await issuer.post(`/proofs/${proofRecordId}/verify`, {})
    return { isVerified: verified.body.data?.isVerified as boolean }
  }

  it('creates a revocable definition and a registry of 8 whose tails file the platform serves', async () => {
    const did = (await issuer.post('/dids', { method: 'indy' }).expect(201)).body.data.did as string
    const schema = await issuer
      .post('/anoncreds/schemas', { issuerId: did, name: 'member', version: '1.0', attributes: ['name', 'age'] })
      .expect(201)
    const definition = await issuer
      .post('/anoncreds/credential-definitions', { schemaId: schema.body.data.schemaId, supportRevocation: true })
      .expect(201)
    credentialDefinitionId = definition.body.data.credentialDefinitionId
    expect(definition.body.data.credentialDefinition.value.revocation).toMatchObject({ g: expect.any(String) })

    const created = await issuer
      .post('/anoncreds/revocation-registries', { credentialDefinitionId, maximumCredentialNumber: 8, tag: 'r1' })
      .expect(201)
    const state = created.body.data
    registryId = state.revocationRegistryDefinitionId
    expect(registryId).toMatch(new RegExp(`^${did}/anoncreds/v0/REV_REG_DEF/\\d+/default/r1$`))
    expect(state).toMatchObject({ state: 'active', revokedIndices: [], timestamp: expect.any(Number) })
    expect(state.revocationStatusList.revocationList).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    const { tailsLocation, tailsHash } = state.revocationRegistryDefinition.value
    expect(tailsLocation).toMatch(new RegExp(`/v1/tails-files/${tailsHash}$`))
    expect((await fetch(tailsLocation)).status).toBe(200)
    const read = await issuer.get(`/anoncreds/revocation-registry?revocationRegistryDefinitionId=${registryId}`)
    expect(read.status).toBe(200)
    expect(read.body.data.revocationStatusList).toEqual(state.revocationStatusList)

    // Refusals: a registry for a definition without revocation, sizes and indices out of range, a foreign registry.
    await issuer
      .post('/anoncreds/revocation-registries', { credentialDefinitionId, maximumCredentialNumber: 1 })
      .expect(400)
    await issuer
      .post('/anoncreds/revocation-registries/revoke', {
        revocationRegistryDefinitionId: registryId,
        revokedIndices: [8],
      })
      .expect(400)
    await holder.get(`/anoncreds/revocation-registry?revocationRegistryDefinitionId=${registryId}`).expect(404)
  })

  it('issues revocable credentials at the indices the offer names; a wrong registry or index is a 400', async () => {
    const offer = (extra: Json, protocolVersion: 'v1' | 'v2' = 'v2') =>
      issuer.post('/credentials/offer', {
        connectionId: issuerConnectionId,
        protocolVersion,
        credentialFormats: {
          anoncreds: {
            credentialDefinitionId,
            attributes: [
              { name: 'name', value: 'x' },
              { name: 'age', value: '1' },
            ],
            ...extra,
          },
        },
      })
    expect((await offer({ revocationRegistryDefinitionId: registryId, revocationRegistryIndex: 8 })).status).toBe(400)
    expect((await offer({ revocationRegistryDefinitionId: `${registryId}x`, revocationRegistryIndex: 1 })).status).toBe(
      400,
    )
    expect((await offer({ revocationRegistryDefinitionId: registryId })).status).toBe(400)
    // Without a registry the credential would be issued unrevocable: refused for either protocol.
    const withoutRegistry = await offer({})
    expect(withoutRegistry.status).toBe(400)
    expect(withoutRegistry.body.errors).toEqual([
      {
        field: 'credentialFormats.anoncreds.revocationRegistryDefinitionId',
        message: 'is required for a revocable credential definition',
      },
    ])
    expect((await offer({}, 'v1')).status).toBe(400)
    // Issue Credential v1 (the `indy` format) names its registry the same way and is checked the same way.
    const v1 = await offer({ revocationRegistryDefinitionId: registryId, revocationRegistryIndex: 8 }, 'v1')
    expect(v1.status).toBe(400)
    expect(v1.body.errors).toEqual([
      { field: 'credentialFormats.anoncreds.revocationRegistryIndex', message: 'is outside the registry' },
    ])

    await issue('Alice', 3)
    await issue('Bob', 5)
    const held = (await holder.get('/anoncreds/credentials').expect(200)).body.data as Json[]
    expect(held.map((c) => [c.attributes.name, c.revocationRegistryId, c.credentialRevocationId]).sort()).toEqual([
      ['Alice', registryId, '3'],
      ['Bob', registryId, '5'],
    ])
  })

  it('proves non-revocation now (verified)', async () => {
    expect(await prove('Alice', { to: now() })).toEqual({ isVerified: true })
    beforeRevocation = now()
  })

  it('revokes and publishes; the revoked credential no longer proves, the other does', async () => {
    // Status lists are dated in seconds: the revocation lands after `beforeRevocation`.
    await sleep(1100)
    const revoked = await issuer
      .post('/anoncreds/revocation-registries/revoke', {
        revocationRegistryDefinitionId: registryId,
        revokedIndices: [3],
      })
      .expect(201)
    expect(revoked.body.data.revokedIndices).toEqual([3])
    expect(revoked.body.data.timestamp).toBeGreaterThan(beforeRevocation)
    await sleep(1100)
    // A retry (a caller that died before recording the revocation) publishes no second list: same timestamp.
    const retried = await issuer
      .post('/anoncreds/revocation-registries/revoke', {
        revocationRegistryDefinitionId: registryId,
        revokedIndices: [3],
      })
      .expect(201)
    expect(retried.body.data).toMatchObject({ revokedIndices: [3], timestamp: revoked.body.data.timestamp })
    const at = now()
    // Credo's holder leaves a revoked credential out by default: nothing to answer with.
    expect(await prove('Alice', { to: at }, true)).toEqual({ refused: expect.stringMatching(/cannot be answered/) })
    // Presented anyway, its non-revocation proof fails.
    expect(await prove('Alice', { to: at })).toEqual({ isVerified: false })
    // from = to after the list's publication: the proof is at the earlier list timestamp, accepted as in force.
    expect(await prove('Bob', { from: at, to: at })).toEqual({ isVerified: true })
  })

  it('picks the credential that is not revoked when the wallet holds both, whatever filterByNonRevocationRequirements', async () => {
    // Alice's credential (revoked) and Bob's (not) both meet a request restricted to the definition only. Credo's
    // selection (getCredentialsForAnonCredsProofRequest): `true` (its default, also when the option is absent)
    // leaves revoked ones out; `false` (the platform's cloud-wallet default, as the spec has it) keeps them but sorts
    // the ones not revoked first. Either way the presentation is Bob's and verifies; only a request that nothing but a
    // revoked credential meets tells them apart (the test above).
    const at = now()
    expect(await prove(undefined, { to: at }, true)).toEqual({ isVerified: true })
    expect(await prove(undefined, { to: at }, false)).toEqual({ isVerified: true })
    expect(await prove(undefined, { to: at }, 'absent')).toEqual({ isVerified: true })
    expect(await prove('Alice', { to: at }, 'absent')).toEqual({
      refused: expect.stringMatching(/cannot be answered/),
    })
  })

  it('refuses malformed non_revoked intervals with a 400 naming them', async () => {
    const requested = await issuer.post('/proofs/request', {
      connectionId: issuerConnectionId,
      proofFormats: {
        anoncreds: {
          requested_attributes: { name: { name: 'name', non_revoked: { from: 10, to: 5 } } },
          non_revoked: { to: 'soon' },
        },
      },
    })
    expect(requested.status).toBe(400)
    expect(requested.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'proofFormats.anoncreds.non_revoked',
      'proofFormats.anoncreds.requested_attributes.name.non_revoked',
    ])
  })

  it('still verifies a proof for an interval that ends before the revocation', async () => {
    expect(await prove('Alice', { to: beforeRevocation })).toEqual({ isVerified: true })
  })

  it('issues over Issue Credential v1 into the registry at the index the offer names (legacy identifiers)', async () => {
    const legacyRegistryId = legacyRevocationRegistryId(registryId)
    const id = await issue('Erin', 6, 'v1')
    const issued = (await issuer.get(`/credentials/${id}/form-data`).expect(200)).body.data.credential.indy as Json
    expect(issued).toMatchObject({
      rev_reg_id: legacyRegistryId,
      rev_reg: { accum: expect.any(String) },
      witness: { omega: expect.any(String) },
    })
    const held = (await holder.get('/anoncreds/credentials').expect(200)).body.data as Json[]
    expect(
      held.filter((c) => c.attributes.name === 'Erin').map((c) => [c.revocationRegistryId, c.credentialRevocationId]),
    ).toEqual([[legacyRegistryId, '6']])
  })
})
