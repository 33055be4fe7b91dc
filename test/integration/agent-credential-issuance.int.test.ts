import { InvalidInputError } from '@idplane/common'
import { DidCommAutoAcceptCredential, DidCommCredentialState } from '@credo-ts/didcomm'

import { assertOfferSignable } from '../../agent/src/formats/jsonld/offer-dry-run'
import { startInProcessAgent, type InProcessAgent, connectAgents, anEd25519DidKey } from '../helpers/agent-in-process'
import { anUnboundDegree, signingOptions } from '../fixtures/degree-credential'

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Issue 10 item 5: issuance between two of our agents never hangs. */
describe('agent credential issuance (two agents, HTTP on 127.0.0.1)', () => {
  let issuer: InProcessAgent
  let holder: InProcessAgent
  let issuerConnectionId: string
  let issuerDid: string
  let holderDid: string

  beforeAll(async () => {
    issuer = await startInProcessAgent()
    holder = await startInProcessAgent()
    issuerConnectionId = await connectAgents(issuer, holder, 20000)
    issuerDid = await anEd25519DidKey(issuer.agent)
    holderDid = await anEd25519DidKey(holder.agent)
  }, 60_000)

  afterAll(async () => {
    await holder?.close()
    await issuer?.close()
  })

  /** Offers under the API's default (contentApproved) and returns the holder's record once the offer arrived. */
  async function offerToHolder(credential: Record<string, unknown>) {
    const offer = await issuer.agent.didcomm.credentials.offerCredential({
      connectionId: issuerConnectionId,
      protocolVersion: 'v2',
      autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      credentialFormats: {
        jsonld: { credential: credential as never, options: signingOptions('Ed25519Signature2018') },
      },
    })
    const holderRecord = await waitFor(async () => {
      const [record] = await holder.agent.didcomm.credentials.findAllByQuery({ threadId: offer.threadId })
      return record?.state === DidCommCredentialState.OfferReceived ? record : undefined
    })
    return { offer, holderRecord }
  }

  it('issues to a holder that binds the credential to its DID (credentialSubject.id in the request)', async () => {
    const { offer, holderRecord } = await offerToHolder(anUnboundDegree(issuerDid))
    await holder.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: holderRecord.id,
      autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      credentialFormats: { jsonld: { credentialSubjectId: holderDid } } as never,
    })
    await waitFor(async () => {
      const record = await issuer.agent.didcomm.credentials.getById(offer.id)
      return record.state === DidCommCredentialState.Done ? record : undefined
    })
    const done = await holder.agent.didcomm.credentials.getById(holderRecord.id)
    expect(done.state).toBe(DidCommCredentialState.Done)
    const [stored] = await holder.agent.w3cCredentials.getAll()
    expect(stored.firstCredential.credentialSubjectIds).toEqual([holderDid])
  }, 60_000)

  it('refuses at offer time an offer that cannot be signed, and accepts a signable one', async () => {
    const context = issuer.agent.context
    const options = signingOptions('Ed25519Signature2018')
    await expect(assertOfferSignable(context, { credential: anUnboundDegree(issuerDid), options })).resolves.toBe(
      undefined,
    )
    const undefinedTerm = assertOfferSignable(context, {
      credential: anUnboundDegree(issuerDid, { favouriteColour: 'blue' }),
      options,
    })
    await expect(undefinedTerm).rejects.toBeInstanceOf(InvalidInputError)
    await expect(undefinedTerm).rejects.toThrow(/cannot be signed.*favouriteColour/)
    const foreignIssuer = assertOfferSignable(context, { credential: anUnboundDegree(holderDid), options })
    await expect(foreignIssuer).rejects.toThrow(/cannot be signed/)
    await expect(
      assertOfferSignable(context, {
        credential: anUnboundDegree(issuerDid),
        options: { ...options, proofPurpose: 'authentication' },
      }),
    ).rejects.toThrow(InvalidInputError)
  })

  it('abandons both sides with the reason when signing fails after the request', async () => {
    // Offered straight through Credo (no dry run), so the failure comes when the holder's request is answered.
    const { offer, holderRecord } = await offerToHolder(anUnboundDegree(issuerDid, { favouriteColour: 'blue' }))
    await holder.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: holderRecord.id,
      autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
    })
    const issuerRecord = await waitFor(async () => {
      const record = await issuer.agent.didcomm.credentials.getById(offer.id)
      return record.state === DidCommCredentialState.Abandoned ? record : undefined
    })
    expect(issuerRecord.errorMessage).toMatch(/^issuance-abandoned: .*favouriteColour/)
    const holderAbandoned = await waitFor(async () => {
      const record = await holder.agent.didcomm.credentials.getById(holderRecord.id)
      return record.state === DidCommCredentialState.Abandoned ? record : undefined
    })
    expect(holderAbandoned.errorMessage).toMatch(/issuance-abandoned/)
  }, 60_000)
})
