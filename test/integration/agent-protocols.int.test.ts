import {
  DidCommAutoAcceptCredential,
  DidCommCredentialState,
  DidCommDidExchangeState,
  DidCommProofState,
} from '@credo-ts/didcomm'

import { withSuiteContext } from '../../agent/src/formats/jsonld/suite-context'
import { startInProcessAgent, type InProcessAgent } from '../helpers/agent-in-process'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('agent protocols (two agents, HTTP on 127.0.0.1)', () => {
  let issuer: InProcessAgent
  let holder: InProcessAgent

  beforeAll(async () => {
    issuer = await startInProcessAgent()
    holder = await startInProcessAgent()
  })

  afterAll(async () => {
    await holder?.close()
    await issuer?.close()
  })

  it('connects, issues a JSON-LD credential and verifies a presentation', async () => {
    const oob = await issuer.agent.didcomm.oob.createInvitation({ label: 'issuer', autoAcceptConnection: true })
    const { connectionRecord } = await holder.agent.didcomm.oob.receiveInvitation(oob.outOfBandInvitation, {
      label: 'holder',
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    if (!connectionRecord) throw new Error('no connection')
    const holderConnection = await holder.agent.didcomm.connections.returnWhenIsConnected(connectionRecord.id, {
      timeoutMs: 20000,
    })
    expect(holderConnection.state).toBe(DidCommDidExchangeState.Completed)
    const [issuerConnection] = await issuer.agent.didcomm.connections.findAllByOutOfBandId(oob.id)

    const ed25519 = { createKey: { type: { kty: 'OKP' as const, crv: 'Ed25519' as const } } }
    const issuerDid = await issuer.agent.dids.create({ method: 'key', options: ed25519 })
    const holderDid = await holder.agent.dids.create({ method: 'key', options: ed25519 })
    const issuerDidValue = String(issuerDid.didState.did)
    const holderDidValue = String(holderDid.didState.did)
    expect(issuerDidValue).toMatch(/^did:key:z6Mk/)

    for (const proofType of ['Ed25519Signature2018', 'Ed25519Signature2020']) {
      const offer = await issuer.agent.didcomm.credentials.offerCredential({
        connectionId: issuerConnection.id,
        protocolVersion: 'v2',
        autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
        credentialFormats: {
          jsonld: {
            credential: withSuiteContext(aDegreeCredential(issuerDidValue, holderDidValue), proofType),
            options: signingOptions(proofType),
          },
        },
      })
      const holderRecord = await waitFor(async () => {
        const [record] = await holder.agent.didcomm.credentials.findAllByQuery({ threadId: offer.threadId })
        return record?.state === DidCommCredentialState.OfferReceived ? record : undefined
      })
      await holder.agent.didcomm.credentials.acceptOffer({
        credentialExchangeRecordId: holderRecord.id,
        autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      })
      await waitFor(async () => {
        const record = await holder.agent.didcomm.credentials.getById(holderRecord.id)
        return record.state === DidCommCredentialState.Done ? record : undefined
      })
    }
    expect(await holder.agent.w3cCredentials.getAll()).toHaveLength(2)

    const request = await issuer.agent.didcomm.proofs.requestProof({
      connectionId: issuerConnection.id,
      protocolVersion: 'v2',
      proofFormats: {
        presentationExchange: {
          presentationDefinition: aDegreePresentationDefinition(),
        },
      },
    })
    const holderProof = await waitFor(async () => {
      const [record] = await holder.agent.didcomm.proofs.findAllByQuery({ threadId: request.threadId })
      return record?.state === DidCommProofState.RequestReceived ? record : undefined
    })
    const selected = await holder.agent.didcomm.proofs.selectCredentialsForRequest({
      proofExchangeRecordId: holderProof.id,
    })
    await holder.agent.didcomm.proofs.acceptRequest({
      proofExchangeRecordId: holderProof.id,
      proofFormats: selected.proofFormats,
    })
    const verified = await waitFor(async () => {
      const record = await issuer.agent.didcomm.proofs.getById(request.id)
      return record.state === DidCommProofState.PresentationReceived ? record : undefined
    })
    expect(verified.isVerified).toBe(true)
  }, 60000)
})
