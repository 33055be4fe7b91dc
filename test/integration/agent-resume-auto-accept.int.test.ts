import { silentLogger } from '@idplane/common'
import {
  DidCommAutoAcceptCredential,
  DidCommCredentialExchangeRepository,
  DidCommCredentialState,
} from '@credo-ts/didcomm'

import { resumeAutoAccepts } from '../../agent/src/credo/resume-auto-accepts'
import { startInProcessAgent, type InProcessAgent, connectAgents, anEd25519DidKey } from '../helpers/agent-in-process'
import { anUnboundDegree, signingOptions } from '../fixtures/degree-credential'
import { waitUntil } from '../helpers/agent-process'

/**
 * Defect 7 (docs/reliability.md): an issuer that stored a holder's request and stopped before answering it. Two real
 * agents over HTTP; the stop is played by an exchange whose request arrived while the record's rule said `never`,
 * then turned to what it would have been (`contentApproved`), as a record left by an earlier process looks.
 */
describe('an agent answers, at its start, the requests an earlier process stored and did not answer', () => {
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

  /** An exchange whose request the issuer stored and did not answer (its rule `never`). */
  async function anUnansweredRequest(degree: string) {
    const offer = await issuer.agent.didcomm.credentials.offerCredential({
      connectionId: issuerConnectionId,
      protocolVersion: 'v2',
      autoAcceptCredential: DidCommAutoAcceptCredential.Never,
      credentialFormats: {
        jsonld: {
          credential: anUnboundDegree(issuerDid, {}, degree) as never,
          options: signingOptions('Ed25519Signature2018'),
        },
      },
    })
    const holderRecord = await waitUntil(async () => {
      const [record] = await holder.agent.didcomm.credentials.findAllByQuery({ threadId: offer.threadId })
      return record?.state === DidCommCredentialState.OfferReceived ? record : undefined
    })
    await holder.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: holderRecord.id,
      autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      credentialFormats: { jsonld: { credentialSubjectId: holderDid } } as never,
    })
    await waitUntil(async () => {
      const record = await issuer.agent.didcomm.credentials.getById(offer.id)
      return record.state === DidCommCredentialState.RequestReceived ? record : undefined
    })
    return { offerId: offer.id, holderRecordId: holderRecord.id }
  }

  async function setRule(recordId: string, rule: DidCommAutoAcceptCredential): Promise<void> {
    const repository = issuer.agent.context.dependencyManager.resolve(DidCommCredentialExchangeRepository)
    const record = await repository.getById(issuer.agent.context, recordId)
    record.autoAcceptCredential = rule
    await repository.update(issuer.agent.context, record)
  }

  it('issues what its rule would have issued, leaves what waits for a person, and what this process received', async () => {
    const left = await anUnansweredRequest('Resumed')
    const waiting = await anUnansweredRequest('Waiting for a person')
    await setRule(left.offerId, DidCommAutoAcceptCredential.ContentApproved)

    // A record changed after this process started is its handlers' business: not touched.
    expect(await resumeAutoAccepts(issuer.agent, silentLogger, new Date(Date.now() - 60_000))).toBe(0)

    expect(await resumeAutoAccepts(issuer.agent, silentLogger, new Date())).toBe(1)
    await waitUntil(async () => {
      const record = await holder.agent.didcomm.credentials.getById(left.holderRecordId)
      return record.state === DidCommCredentialState.Done ? record : undefined
    })
    await waitUntil(async () => {
      const record = await issuer.agent.didcomm.credentials.getById(left.offerId)
      return record.state === DidCommCredentialState.Done ? record : undefined
    })
    expect((await issuer.agent.didcomm.credentials.getById(waiting.offerId)).state).toBe(
      DidCommCredentialState.RequestReceived,
    )
    // Answered once: a second pass finds nothing more.
    expect(await resumeAutoAccepts(issuer.agent, silentLogger, new Date())).toBe(0)
  }, 90_000)
})
