import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { randomSchemaName } from '../helpers/agent-in-process'
import { spawnAgent, type SpawnedAgent, waitUntil } from '../helpers/agent-process'
import { buildPrograms } from '../helpers/build-programs'

interface Envelope<T> {
  data: T
}
type Rec = Record<string, unknown> & { id: string; state: string; threadId: string }

jest.setTimeout(240000)

/** With DATABASE_URL the agents store in PostgreSQL (a schema each, dropped at the end); else PGlite. */
const databaseUrl = process.env.DATABASE_URL

/**
 * Two agent processes over DIDComm HTTP with AnonCreds on our TypeScript library: schema and credential definition
 * through the test registry (a directory both processes share), Issue Credential v1 and v2, Present Proof v1 and v2
 * with revealed attributes, an attribute group and predicates; an unmet predicate ends the exchange on both sides.
 */
describe('AnonCreds between agent processes', () => {
  let issuer: SpawnedAgent
  let holder: SpawnedAgent
  let registryDir: string
  const databaseSchemas: string[] = []
  let issuerConnectionId: string
  /** did:key identifiers (the `anoncreds` format, v2) and legacy Indy identifiers (the `indy` format, v1). */
  const definitions = {
    v2: { schemaId: '', credentialDefinitionId: '' },
    v1: { schemaId: '', credentialDefinitionId: '' },
  }

  beforeAll(async () => {
    buildPrograms()
    registryDir = mkdtempSync(path.join(tmpdir(), 'anoncreds-registry-'))
    const env = (label: string): Record<string, string> => {
      const storage: Record<string, string> = {}
      if (databaseUrl) {
        const schema = randomSchemaName(`ac_${label}`)
        databaseSchemas.push(schema)
        storage.AGENT_DATABASE_URL = databaseUrl
        storage.AGENT_DATABASE_SCHEMA = schema
      }
      return { AGENT_ANONCREDS_TEST_REGISTRY_DIR: registryDir, ...storage }
    }
    ;[issuer, holder] = await Promise.all([
      spawnAgent({ label: 'ac-issuer', env: env('issuer') }),
      spawnAgent({ label: 'ac-holder', env: env('holder') }),
    ])
    const invitation = await issuer.call<Envelope<{ invitationUrl: string; outOfBandRecord: { id: string } }>>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    const received = await holder.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    const holderConnectionId = received.body.data.connectionRecord.id
    const issuerSide = await waitUntil(async () => {
      const list = await issuer.call<Envelope<Rec[]>>(
        'GET',
        `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
      )
      return list.body.data.find((record) => record.state === 'completed')
    })
    issuerConnectionId = issuerSide.id
    await waitUntil(async () => {
      const record = await holder.call<Envelope<Rec>>('GET', `/connections/${holderConnectionId}`)
      return record.body.data.state === 'completed' ? true : undefined
    })
  })

  afterAll(async () => {
    await Promise.all([issuer?.stop(), holder?.stop()])
    if (registryDir) rmSync(registryDir, { recursive: true, force: true })
    if (databaseUrl && databaseSchemas.length > 0) {
      const sql = await PgSqlClient.connect(databaseUrl, 'public')
      for (const schema of databaseSchemas) await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await sql.close()
    }
  })

  async function createDefinition(legacyIdentifiers: boolean) {
    const schema = await issuer.call<Envelope<{ schemaId: string; schema: { issuerId: string } }>>(
      'POST',
      '/anoncreds/schemas',
      { name: 'person', version: '1.0', attributes: ['name', 'city', 'street', 'age', 'height'], legacyIdentifiers },
    )
    expect(schema.status).toBe(201)
    const definition = await issuer.call<Envelope<{ credentialDefinitionId: string }>>(
      'POST',
      '/anoncreds/credential-definitions',
      { schemaId: schema.body.data.schemaId, tag: 'default' },
    )
    expect(definition.status).toBe(201)
    return {
      issuerId: schema.body.data.schema.issuerId,
      schemaId: schema.body.data.schemaId,
      credentialDefinitionId: definition.body.data.credentialDefinitionId,
    }
  }

  it('creates schemas and credential definitions through the registry; bad input is a 4xx', async () => {
    const uri = await createDefinition(false)
    expect(uri.schemaId).toMatch(/^did:key:z[^/]+\/anoncreds\/v0\/SCHEMA\/person\/1\.0$/)
    expect(uri.credentialDefinitionId.startsWith(`${uri.issuerId}/anoncreds/v0/CLAIM_DEF/`)).toBe(true)
    const legacy = await createDefinition(true)
    expect(legacy.schemaId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{21,22}:2:person:1\.0$/)
    expect(legacy.credentialDefinitionId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{21,22}:3:CL:[1-9][0-9]*:default$/)
    definitions.v2 = uri
    definitions.v1 = legacy

    expect(
      (await issuer.call('POST', '/anoncreds/schemas', { name: 'x', version: '1.0', attributes: [] })).status,
    ).toBe(400)
    expect(
      (await issuer.call('POST', '/anoncreds/schemas', { name: 'x', version: '1.0', attributes: ['a', 'a'] })).status,
    ).toBe(400)
    expect(
      (await issuer.call('POST', '/anoncreds/credential-definitions', { schemaId: `${uri.schemaId}-unknown` })).status,
    ).toBe(404)
    const list = await issuer.call<Envelope<{ credentialDefinitionId: string }[]>>(
      'GET',
      '/anoncreds/credential-definitions',
    )
    expect(list.body.data.map((entry) => entry.credentialDefinitionId).sort()).toEqual(
      [uri.credentialDefinitionId, legacy.credentialDefinitionId].sort(),
    )
  })

  const attributes = (name: string, age: string) => [
    { name: 'name', value: name },
    { name: 'city', value: 'Berlin' },
    { name: 'street', value: 'Main Street 1' },
    { name: 'age', value: age },
    { name: 'height', value: '180' },
  ]

  async function issue(protocolVersion: 'v1' | 'v2', name: string, age: string) {
    const offer = await issuer.call<Envelope<Rec>>('POST', '/credentials/offer', {
      connectionId: issuerConnectionId,
      protocolVersion,
      credentialFormats: {
        anoncreds: {
          credentialDefinitionId: definitions[protocolVersion].credentialDefinitionId,
          attributes: attributes(name, age),
        },
      },
      autoAcceptCredential: 'always',
    })
    expect(offer.status).toBe(201)
    const holderOffer = await waitUntil(async () => {
      const list = await holder.call<Envelope<Rec[]>>('GET', `/credentials?threadId=${offer.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'offer-received')
    })
    expect(holderOffer.protocolVersion).toBe(protocolVersion)
    if (protocolVersion === 'v2') {
      // A format the offer does not carry is the caller's mistake: a 400, and the offer can still be accepted.
      const misnamed = await holder.call<{ message: string }>('POST', '/credentials/accept-offer', {
        credentialRecordId: holderOffer.id,
        credentialFormats: {
          jsonld: { credentialSubjectId: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' },
        },
      })
      expect(misnamed.status).toBe(400)
      expect(misnamed.body.message).toContain('carries no jsonld format')
      const unchanged = await holder.call<Envelope<Rec>>('GET', `/credentials/${holderOffer.id}`)
      expect(unchanged.body.data.state).toBe('offer-received')
    }
    const accepted = await holder.call('POST', '/credentials/accept-offer', {
      credentialRecordId: holderOffer.id,
      autoAcceptCredential: 'always',
    })
    expect(accepted.status).toBe(201)
    await waitUntil(async () => {
      const record = await holder.call<Envelope<Rec>>('GET', `/credentials/${holderOffer.id}`)
      return record.body.data.state === 'done' ? true : undefined
    })
    return holderOffer.id
  }

  it('issues AnonCreds credentials over Issue Credential v1 (indy) and v2 (anoncreds)', async () => {
    const v1 = await issue('v1', 'Alice', '30')
    const v2 = await issue('v2', 'Bob', '25')
    const formData = await holder.call<Envelope<{ credential?: Record<string, { values?: unknown }> }>>(
      'GET',
      `/credentials/${v2}/form-data`,
    )
    expect(formData.body.data.credential?.anoncreds?.values).toMatchObject({ name: { raw: 'Bob' } })
    const v1Data = await holder.call<Envelope<{ credential?: Record<string, { values?: unknown }> }>>(
      'GET',
      `/credentials/${v1}/form-data`,
    )
    expect(v1Data.body.data.credential?.indy?.values).toMatchObject({ name: { raw: 'Alice' } })
    const held = await holder.call<Envelope<{ attributes: Record<string, string>; credentialDefinitionId: string }[]>>(
      'GET',
      '/anoncreds/credentials',
    )
    expect(held.body.data.map((credential) => credential.attributes.name).sort()).toEqual(['Alice', 'Bob'])
    expect(held.body.data.map((credential) => credential.credentialDefinitionId).sort()).toEqual(
      [definitions.v1.credentialDefinitionId, definitions.v2.credentialDefinitionId].sort(),
    )
  })

  /** v1 asks for Alice's (legacy identifiers), v2 for Bob's. */
  function proofRequest(protocolVersion: 'v1' | 'v2', minimumAge: number) {
    const { credentialDefinitionId, schemaId } = definitions[protocolVersion]
    const name = protocolVersion === 'v1' ? 'Alice' : 'Bob'
    const restrictions = [{ cred_def_id: credentialDefinitionId }]
    return {
      name: 'person check',
      version: '1.0',
      requested_attributes: {
        name: { name: 'name', restrictions: [{ cred_def_id: credentialDefinitionId, 'attr::name::value': name }] },
        city: { name: 'city', restrictions },
        address: { names: ['street', 'city'], restrictions },
      },
      requested_predicates: {
        adult: { name: 'age', p_type: '>=', p_value: minimumAge, restrictions },
        tallEnough: { name: 'height', p_type: '>', p_value: 150, restrictions: [{ schema_id: schemaId }] },
      },
    }
  }

  async function requestProof(protocolVersion: 'v1' | 'v2', minimumAge: number) {
    const request = await issuer.call<Envelope<Rec>>('POST', '/proofs/request', {
      connectionId: issuerConnectionId,
      protocolVersion,
      proofFormats: { anoncreds: proofRequest(protocolVersion, minimumAge) },
    })
    expect(request.status).toBe(201)
    const holderRequest = await waitUntil(async () => {
      const list = await holder.call<Envelope<Rec[]>>('GET', `/proofs?threadId=${request.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'request-received')
    })
    return { verifierRecordId: request.body.data.id, holderRecordId: holderRequest.id }
  }

  for (const protocolVersion of ['v1', 'v2'] as const) {
    it(`proves two revealed attributes, an attribute group and two predicates over Present Proof ${protocolVersion}`, async () => {
      const { verifierRecordId, holderRecordId } = await requestProof(protocolVersion, 18)
      expect((await holder.call('POST', '/proofs/accept-request', { proofRecordId: holderRecordId })).status).toBe(201)
      await waitUntil(async () => {
        const record = await issuer.call<Envelope<Rec>>('GET', `/proofs/${verifierRecordId}`)
        return ['presentation-received', 'done'].includes(record.body.data.state) ? true : undefined
      })
      const verified = await issuer.call<Envelope<{ isVerified: boolean }>>(
        'POST',
        `/proofs/${verifierRecordId}/verify`,
      )
      expect(verified.status).toBe(201)
      expect(verified.body.data.isVerified).toBe(true)
      const formData = await issuer.call<
        Envelope<{
          isVerified: boolean
          revealed: Record<string, string>[]
          anoncreds: {
            revealedAttributes: Record<string, { name: string; raw: string }>
            revealedAttributeGroups: Record<string, Record<string, string>>
            predicates: Record<string, { name: string; p_type: string; p_value: number }>
          }
        }>
      >('GET', `/proofs/${verifierRecordId}/form-data`)
      const summary = formData.body.data.anoncreds
      const name = protocolVersion === 'v1' ? 'Alice' : 'Bob'
      expect(summary.revealedAttributes).toEqual({
        name: { name: 'name', raw: name },
        city: { name: 'city', raw: 'Berlin' },
      })
      expect(summary.revealedAttributeGroups).toEqual({ address: { street: 'Main Street 1', city: 'Berlin' } })
      expect(summary.predicates).toEqual({
        adult: { name: 'age', p_type: '>=', p_value: 18 },
        tallEnough: { name: 'height', p_type: '>', p_value: 150 },
      })
      expect(formData.body.data.revealed).toEqual([{ name, city: 'Berlin', street: 'Main Street 1' }])
      // The hidden attributes stay hidden.
      expect(JSON.stringify(formData.body.data)).not.toMatch(/"raw":"(30|25|180)"/)
      const holderSide = await waitUntil(async () => {
        const record = await holder.call<Envelope<Rec>>('GET', `/proofs/${holderRecordId}`)
        return record.body.data.state === 'done' || record.body.data.state === 'presentation-sent'
          ? record.body.data
          : undefined
      })
      expect(['done', 'presentation-sent']).toContain(holderSide.state)
    })
  }

  it('ends the exchange on both sides when the holder cannot meet a predicate', async () => {
    const { verifierRecordId, holderRecordId } = await requestProof('v2', 200)
    const refused = await holder.call<{ message: string }>('POST', '/proofs/accept-request', {
      proofRecordId: holderRecordId,
    })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/predicate/i)
    const holderSide = await holder.call<Envelope<Rec>>('GET', `/proofs/${holderRecordId}`)
    // Ended with a problem report and abandoned with the reason, like every format failure (issue 22 item 10).
    expect(holderSide.body.data.state).toBe('abandoned')
    const verifierSide = await waitUntil(async () => {
      const record = await issuer.call<Envelope<Rec & { errorMessage?: string }>>('GET', `/proofs/${verifierRecordId}`)
      return record.body.data.state === 'abandoned' ? record.body.data : undefined
    })
    expect(verifierSide.errorMessage).toMatch(/The proof request cannot be answered: .*predicate/i)
    expect(verifierSide.isVerified).toBeUndefined()
  })

  it('offers a credential and requests a proof out of band (v2 anoncreds)', async () => {
    const offer = await issuer.call<Envelope<{ invitationUrl: string; credentialRecord: Rec }>>(
      'POST',
      '/credentials/oob/offer',
      {
        credentialFormats: {
          anoncreds: {
            credentialDefinitionId: definitions.v2.credentialDefinitionId,
            attributes: attributes('Carol', '41'),
          },
        },
        autoAcceptCredential: 'always',
      },
    )
    expect(offer.status).toBe(201)
    const receivedOffer = await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: offer.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(receivedOffer.status).toBe(201)
    const holderOffer = await waitUntil(async () => {
      const list = await holder.call<Envelope<Rec[]>>(
        'GET',
        `/credentials?threadId=${offer.body.data.credentialRecord.threadId}`,
      )
      return list.body.data.find((record) => record.state === 'offer-received')
    })
    await holder.call('POST', '/credentials/accept-offer', {
      credentialRecordId: holderOffer.id,
      autoAcceptCredential: 'always',
    })
    await waitUntil(async () => {
      const record = await holder.call<Envelope<Rec>>('GET', `/credentials/${holderOffer.id}`)
      return record.body.data.state === 'done' ? true : undefined
    })

    const request = await issuer.call<Envelope<{ invitationUrl: string; proofRecord: Rec }>>(
      'POST',
      '/proofs/oob/request',
      {
        proofFormats: {
          anoncreds: {
            requested_attributes: {
              name: {
                name: 'name',
                restrictions: [{ cred_def_id: definitions.v2.credentialDefinitionId, 'attr::name::value': 'Carol' }],
              },
            },
            requested_predicates: { senior: { name: 'age', p_type: '>', p_value: 40 } },
          },
        },
      },
    )
    expect(request.status).toBe(201)
    const receivedRequest = await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: request.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(receivedRequest.status).toBe(201)
    const holderRequest = await waitUntil(async () => {
      const list = await holder.call<Envelope<Rec[]>>(
        'GET',
        `/proofs?threadId=${request.body.data.proofRecord.threadId}`,
      )
      return list.body.data.find((record) => record.state === 'request-received')
    })
    expect((await holder.call('POST', '/proofs/accept-request', { proofRecordId: holderRequest.id })).status).toBe(201)
    const verifierRecordId = request.body.data.proofRecord.id
    await waitUntil(async () => {
      const record = await issuer.call<Envelope<Rec>>('GET', `/proofs/${verifierRecordId}`)
      return ['presentation-received', 'done'].includes(record.body.data.state) ? true : undefined
    })
    const verified = await issuer.call<Envelope<{ isVerified: boolean }>>('POST', `/proofs/${verifierRecordId}/verify`)
    expect(verified.body.data.isVerified).toBe(true)
  })

  it('refuses malformed AnonCreds requests and offers with a 400', async () => {
    const bad = await issuer.call('POST', '/proofs/request', {
      connectionId: issuerConnectionId,
      proofFormats: { anoncreds: { requested_predicates: { x: { name: 'age', p_type: '!=', p_value: 1 } } } },
    })
    expect(bad.status).toBe(400)
    const empty = await issuer.call('POST', '/proofs/request', {
      connectionId: issuerConnectionId,
      proofFormats: { anoncreds: {} },
    })
    expect(empty.status).toBe(400)
    const noAttributes = await issuer.call('POST', '/credentials/offer', {
      connectionId: issuerConnectionId,
      credentialFormats: {
        anoncreds: { credentialDefinitionId: definitions.v2.credentialDefinitionId, attributes: [] },
      },
    })
    expect(noAttributes.status).toBe(400)
    const jsonLdOverV1 = await issuer.call('POST', '/proofs/request', {
      connectionId: issuerConnectionId,
      protocolVersion: 'v1',
      presentationDefinition: { id: 'x', input_descriptors: [] },
    })
    expect(jsonLdOverV1.status).toBe(400)
  })
})
