import { silentLogger } from '@idplane/common'
import {
  DidCommAutoAcceptCredential,
  DidCommCredentialEventTypes,
  DidCommCredentialState,
  type DidCommCredentialStateChangedEvent,
} from '@credo-ts/didcomm'

import { contextProviderOf, ExchangeTimeouts } from '../../agent/src/credo/exchange-timeouts'
import { startInProcessAgent, type InProcessAgent, connectAgents, anEd25519DidKey } from '../helpers/agent-in-process'
import { aDegreeCredential, signingOptions } from '../fixtures/degree-credential'

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

/** Short retries: the backoff itself is unit-sized; what is checked here is that the message survives. */
const QUEUE = { maxAttempts: 100, pollIntervalMs: 200, delayMs: () => 300 }

/**
 * Issue 23 item 6 with real agents over HTTP and their real PostgreSQL storage: a message the other agent did not
 * take is kept in the sender's database and delivered once that agent is back, across a restart of the sender as
 * well; an exchange whose answer never comes ends abandoned with its reason and its event after the timeout.
 */
describe('durable outbound DIDComm messages and exchange timeouts (two agents, HTTP on 127.0.0.1)', () => {
  const started: InProcessAgent[] = []
  const start = async (options: Parameters<typeof startInProcessAgent>[0] = {}) => {
    const agent = await startInProcessAgent({ outboundQueue: QUEUE, ...options })
    started.push(agent)
    return agent
  }

  afterAll(async () => {
    // Every schema is dropped once, by the last agent started on it.
    const last = new Map(started.map((agent) => [agent.schema, agent]))
    for (const agent of started) {
      if (last.get(agent.schema) !== agent) continue
      await agent.close().catch(() => undefined)
    }
  })

  /** Two connected agents and an offer from the first that reached the second (`offer-received`). */
  async function anOfferReceived(issuer: InProcessAgent, holder: InProcessAgent) {
    const issuerConnectionId = await connectAgents(issuer, holder, 60_000)
    const issuerDid = await anEd25519DidKey(issuer.agent)
    const holderDid = await anEd25519DidKey(holder.agent)
    const offer = await issuer.agent.didcomm.credentials.offerCredential({
      connectionId: issuerConnectionId,
      protocolVersion: 'v2',
      autoAcceptCredential: DidCommAutoAcceptCredential.ContentApproved,
      credentialFormats: {
        jsonld: {
          credential: aDegreeCredential(issuerDid, holderDid) as never,
          options: signingOptions('Ed25519Signature2018'),
        },
      },
    })
    const holderRecord = await waitFor(async () => {
      const [record] = await holder.agent.didcomm.credentials.findAllByQuery({ threadId: offer.threadId })
      return record?.state === DidCommCredentialState.OfferReceived ? record : undefined
    })
    return { offer, holderRecord }
  }

  it('delivers the request after the issuer comes back, across a restart of the holder too; both end done', async () => {
    const issuer = await start()
    let holder = await start()
    const { offer, holderRecord } = await anOfferReceived(issuer, holder)

    // The issuer goes away (its records stay in its database).
    await issuer.close({ keepSchema: true })
    const accepted = await holder.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: holderRecord.id,
      autoAcceptCredential: DidCommAutoAcceptCredential.Always,
    })
    expect(accepted.state).toBe(DidCommCredentialState.RequestSent)
    expect(await holder.outboundQueue?.size()).toBe(1)

    // The holder restarts as well: the message is in its database, not in the memory of the process that failed.
    await holder.close({ keepSchema: true })
    holder = await start({ schema: holder.schema, port: holder.port })
    const issuerAgain = await start({ schema: issuer.schema, port: issuer.port })

    await waitFor(async () => {
      const record = await holder.agent.didcomm.credentials.getById(holderRecord.id)
      return record.state === DidCommCredentialState.Done ? true : undefined
    })
    await waitFor(async () => {
      const record = await issuerAgain.agent.didcomm.credentials.getById(offer.id)
      return record.state === DidCommCredentialState.Done ? true : undefined
    })
    expect(await holder.outboundQueue?.size()).toBe(0)
  })

  it('ends an exchange with no answer past the timeout as abandoned, with its reason and its event', async () => {
    const issuer = await start()
    const holder = await start({ outboundQueue: { ...QUEUE, delayMs: () => 60_000 } })
    const { holderRecord } = await anOfferReceived(issuer, holder)
    await issuer.close({ keepSchema: true })
    await holder.agent.didcomm.credentials.acceptOffer({ credentialExchangeRecordId: holderRecord.id })

    const events: DidCommCredentialStateChangedEvent[] = []
    holder.agent.events.on<DidCommCredentialStateChangedEvent>(
      DidCommCredentialEventTypes.DidCommCredentialStateChanged,
      (event) => {
        events.push(event)
      },
    )
    const timeouts = new ExchangeTimeouts(
      holder.sql,
      () => contextProviderOf(holder.agent),
      { timeoutSeconds: 2 },
      silentLogger,
    )
    // Not yet past the timeout: nothing ends.
    expect(await timeouts.sweep()).toBe(0)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(await timeouts.sweep()).toBe(1)

    const record = await holder.agent.didcomm.credentials.getById(holderRecord.id)
    expect(record.state).toBe(DidCommCredentialState.Abandoned)
    expect(record.errorMessage).toMatch(/No answer from the other agent for 2 seconds in state request-sent/)
    expect(events.map((event) => [event.payload.previousState, event.payload.credentialExchangeRecord.state])).toEqual([
      [DidCommCredentialState.RequestSent, DidCommCredentialState.Abandoned],
    ])
    // A second sweep finds nothing more; an offer waiting for its holder's decision never times out.
    expect(await timeouts.sweep()).toBe(0)
  })
})
