import { ConflictError } from '@idplane/common'
import { DidCommAutoAcceptCredential, DidCommCredentialState, DidCommProofState } from '@credo-ts/didcomm'

import { AgentRuntime } from '../../agent/src/admin/agent-runtime'
import type { AgentScope } from '../../agent/src/admin/agent-scope'
import { CredentialsService } from '../../agent/src/admin/credentials.service'
import { ProofsService } from '../../agent/src/admin/proofs.service'
import { startInProcessAgent, type InProcessAgent, connectAgents, anEd25519DidKey } from '../helpers/agent-in-process'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'

jest.setTimeout(300_000)

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Issue 22 item 10 at the agent, through its admin services (the routes the cloud wallet calls): a holder wallet
 * that never created a DID accepts a JSON-LD offer naming no subject and answers a DIF PE request with it; a
 * request it cannot answer is a 409 with the reason, and the exchange ends abandoned on both sides.
 */
describe('a holder wallet without DIDs (two agents, HTTP on 127.0.0.1)', () => {
  let issuer: InProcessAgent
  let holder: InProcessAgent
  let issuerConnectionId: string
  let issuerDid: string
  let scope: AgentScope
  const runtime = new AgentRuntime('holder', [])

  beforeAll(async () => {
    issuer = await startInProcessAgent()
    holder = await startInProcessAgent()
    scope = { agent: holder.agent, label: 'holder' }
    issuerConnectionId = await connectAgents(issuer, holder, 60_000)
    issuerDid = await anEd25519DidKey(issuer.agent)
  })

  afterAll(async () => {
    await holder?.close()
    await issuer?.close()
  })

  async function proofRequestReceived(presentationDefinition: object) {
    const request = await issuer.agent.didcomm.proofs.requestProof({
      connectionId: issuerConnectionId,
      protocolVersion: 'v2',
      proofFormats: { presentationExchange: { presentationDefinition: presentationDefinition as never } },
    })
    const received = await waitFor(async () => {
      const [record] = await holder.agent.didcomm.proofs.findAllByQuery({ threadId: request.threadId })
      return record?.state === DidCommProofState.RequestReceived ? record : undefined
    })
    return { request, received }
  }

  it('binds the credential to a did:key of its own at accept and presents it', async () => {
    // The connection's did:peer is the only DID it has.
    expect(await holder.agent.dids.getCreatedDids({ method: 'key' })).toEqual([])
    const { credentialSubject, ...rest } = aDegreeCredential(issuerDid, 'unused')
    const { id: _none, ...subject } = credentialSubject
    const offer = await issuer.agent.didcomm.credentials.offerCredential({
      connectionId: issuerConnectionId,
      protocolVersion: 'v2',
      autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      credentialFormats: {
        jsonld: {
          credential: { ...rest, credentialSubject: subject } as never,
          options: signingOptions('Ed25519Signature2018'),
        },
      },
    })
    const offered = await waitFor(async () => {
      const [record] = await holder.agent.didcomm.credentials.findAllByQuery({ threadId: offer.threadId })
      return record?.state === DidCommCredentialState.OfferReceived ? record : undefined
    })
    await new CredentialsService(runtime).acceptOffer(scope, {
      credentialRecordId: offered.id,
      autoAcceptCredential: 'always',
      credentialFormats: { jsonld: {} },
    })
    const settled = await waitFor(async () => {
      const record = await holder.agent.didcomm.credentials.getById(offered.id)
      return ['done', 'abandoned'].includes(record.state) ? record : undefined
    })
    const issued = await issuer.agent.didcomm.credentials.getById(offer.id)
    expect({ holder: [settled.state, settled.errorMessage], issuer: [issued.state, issued.errorMessage] }).toEqual({
      holder: [DidCommCredentialState.Done, undefined],
      issuer: [expect.stringMatching(/done|credential-issued/), undefined],
    })
    const dids = await holder.agent.dids.getCreatedDids({ method: 'key' })
    expect(dids).toHaveLength(1)
    const [stored] = await holder.agent.w3cCredentials.getAll()
    expect(stored.firstCredential.credentialSubjectIds).toEqual([dids[0].did])

    const { request, received } = await proofRequestReceived(aDegreePresentationDefinition())
    const answered = await new ProofsService(runtime).acceptRequest(scope, { proofRecordId: received.id })
    expect(answered.state).toBe(DidCommProofState.PresentationSent)
    await waitFor(async () => {
      const record = await issuer.agent.didcomm.proofs.getById(request.id)
      return record.state === DidCommProofState.PresentationReceived ? true : undefined
    })
    const verified = await issuer.agent.didcomm.proofs.acceptPresentation({ proofExchangeRecordId: request.id })
    expect(verified.isVerified).toBe(true)
  })

  it('answers 409 with the reason for a request it cannot satisfy, and ends the exchange on both sides', async () => {
    const { request, received } = await proofRequestReceived(
      aDegreePresentationDefinition([
        { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: 'Doctor of Nothing' } },
      ]),
    )
    const refused = new ProofsService(runtime).acceptRequest(scope, { proofRecordId: received.id })
    await expect(refused).rejects.toBeInstanceOf(ConflictError)
    await expect(refused).rejects.toThrow(/The proof request cannot be answered: .+abandoned/)
    const holderRecord = await holder.agent.didcomm.proofs.getById(received.id)
    expect(holderRecord.state).toBe(DidCommProofState.Abandoned)
    expect(holderRecord.errorMessage).toMatch(/The proof request cannot be answered/)
    await waitFor(async () => {
      const record = await issuer.agent.didcomm.proofs.getById(request.id)
      return record.state === DidCommProofState.Abandoned ? true : undefined
    })
  })
})
