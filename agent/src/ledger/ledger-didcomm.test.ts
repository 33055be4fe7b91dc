import { FakeLedger } from '../../../test/helpers/fake-ledger'
import { type LedgerAgent, startLedgerAgent } from '../../../test/helpers/ledger-agent'

type Rec = { id: string; state: string; threadId?: string; protocolVersion?: string }
type Envelope<T> = { data: T }

/**
 * Two real Credo agents, an issuer and a holder (who also verifies nothing: the issuer verifies), whose AnonCreds
 * objects live on the ledger only (no test registry directory): the holder resolves the issuer's schema and
 * credential definition through the ledger registry, in legacy form for Issue Credential / Present Proof v1 (the
 * `indy` format) and in did:indy form for v2 (`anoncreds`). The ledger is an in-test server at the edge.
 */
describe('AnonCreds over DIDComm with objects on the ledger', () => {
  let ledger: FakeLedger
  let issuer: LedgerAgent
  let holder: LedgerAgent
  let issuerConnectionId: string
  const definitions: Record<'v1' | 'v2', { credentialDefinitionId: string; schemaId: string }> = {
    v1: { credentialDefinitionId: '', schemaId: '' },
    v2: { credentialDefinitionId: '', schemaId: '' },
  }

  beforeAll(async () => {
    ledger = await new FakeLedger('idplane').start()
    ;[issuer, holder] = await Promise.all([startLedgerAgent(ledger, 'issuer'), startLedgerAgent(ledger, 'holder')])
    const invitation = await issuer.post('/oob/create-invitation', { autoAcceptConnection: true })
    const received = await holder.post('/oob/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    const holderConnectionId = received.body.data.connectionRecord.id as string
    const issuerSide = await waitUntil(async () => {
      const list = await issuer.get(`/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`)
      return (list.body as Envelope<Rec[]>).data.find((record) => record.state === 'completed')
    })
    issuerConnectionId = issuerSide.id
    await waitUntil(async () => {
      const record = await holder.get(`/connections/${holderConnectionId}`)
      return record.body.data.state === 'completed' ? true : undefined
    })

    // v1: a legacy issuer (a did:indy DID on the ledger, used unqualified); v2: a did:indy issuer.
    const legacy = await issuer.post('/anoncreds/schemas', {
      name: 'person',
      version: '1.0',
      attributes: ['name', 'age'],
      legacyIdentifiers: true,
    })
    const did = (await issuer.post('/dids', { method: 'indy' })).body.data.did as string
    const qualified = await issuer.post('/anoncreds/schemas', {
      issuerId: did,
      name: 'person',
      version: '1.0',
      attributes: ['name', 'age'],
    })
    for (const [version, schema] of [
      ['v1', legacy],
      ['v2', qualified],
    ] as const) {
      expect(schema.status).toBe(201)
      const definition = await issuer.post('/anoncreds/credential-definitions', { schemaId: schema.body.data.schemaId })
      expect(definition.status).toBe(201)
      definitions[version] = {
        schemaId: schema.body.data.schemaId,
        credentialDefinitionId: definition.body.data.credentialDefinitionId,
      }
    }
    expect(definitions.v1.credentialDefinitionId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{21,22}:3:CL:[1-9][0-9]*:default$/)
    expect(definitions.v2.credentialDefinitionId).toMatch(/^did:indy:idplane:[^/]+\/anoncreds\/v0\/CLAIM_DEF\//)
  }, 300_000)

  afterAll(async () => {
    await Promise.all([issuer?.close(), holder?.close()])
    await ledger?.stop()
  })

  for (const protocolVersion of ['v1', 'v2'] as const) {
    it(`issues over Issue Credential ${protocolVersion} and proves a predicate over Present Proof ${protocolVersion}`, async () => {
      const { credentialDefinitionId, schemaId } = definitions[protocolVersion]
      const offer = await issuer.post('/credentials/offer', {
        connectionId: issuerConnectionId,
        protocolVersion,
        credentialFormats: {
          anoncreds: {
            credentialDefinitionId,
            attributes: [
              { name: 'name', value: 'Alice' },
              { name: 'age', value: '30' },
            ],
          },
        },
        autoAcceptCredential: 'always',
      })
      expect(offer.status).toBe(201)
      const holderOffer = await waitUntil(async () => {
        const list = await holder.get(`/credentials?threadId=${offer.body.data.threadId}`)
        return (list.body as Envelope<Rec[]>).data.find((record) => record.state === 'offer-received')
      })
      expect((await holder.post('/credentials/accept-offer', { credentialRecordId: holderOffer.id })).status).toBe(201)
      await waitUntil(async () => {
        const record = await holder.get(`/credentials/${holderOffer.id}`)
        return record.body.data.state === 'done' ? true : undefined
      })

      const request = await issuer.post('/proofs/request', {
        connectionId: issuerConnectionId,
        protocolVersion,
        proofFormats: {
          anoncreds: {
            name: 'check',
            version: '1.0',
            requested_attributes: { name: { name: 'name', restrictions: [{ cred_def_id: credentialDefinitionId }] } },
            requested_predicates: {
              adult: { name: 'age', p_type: '>=', p_value: 18, restrictions: [{ schema_id: schemaId }] },
            },
          },
        },
      })
      expect(request.status).toBe(201)
      const holderRequest = await waitUntil(async () => {
        const list = await holder.get(`/proofs?threadId=${request.body.data.threadId}`)
        return (list.body as Envelope<Rec[]>).data.find((record) => record.state === 'request-received')
      })
      expect((await holder.post('/proofs/accept-request', { proofRecordId: holderRequest.id })).status).toBe(201)
      await waitUntil(async () => {
        const record = await issuer.get(`/proofs/${request.body.data.id}`)
        return ['presentation-received', 'done'].includes(record.body.data.state) ? true : undefined
      })
      const verified = await issuer.post(`/proofs/${request.body.data.id}/verify`, {})
      expect(verified.status).toBe(201)
      expect(verified.body.data.isVerified).toBe(true)
    }, 120_000)
  }
})

async function waitUntil<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
