import { silentLogger } from '@idplane/common'
import {
  DidCommAutoAcceptCredential,
  DidCommCredentialEventTypes,
  DidCommCredentialState,
  type DidCommCredentialStateChangedEvent,
} from '@credo-ts/didcomm'

import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import { contextProviderOf, ExchangeTimeouts } from '../../agent/src/credo/exchange-timeouts'
import { DidCommNodeHttpInboundTransport } from '../../agent/src/transport/didcomm-http-inbound.transport'
import { OutboundQueue, type QueuedMessage } from '../../agent/src/transport/outbound-queue'
import { TakenEnvelopes } from '../../agent/src/transport/taken-envelopes'
import {
  startInProcessAgent,
  type InProcessAgent,
  connectAgents,
  anEd25519DidKey,
  randomSchemaName,
  TEST_DATABASE_URL,
} from '../helpers/agent-in-process'
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
    // The connection's messages delivered, so the queue holds only the request below.
    await waitFor(async () => ((await holder.outboundQueue?.size()) === 0 ? true : undefined))

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
    // The holder's ack stays queued until the issuer's HTTP answer to it arrives, which can be a moment after the
    // issuer's record is done (and a batch delete of delivered rows can be under way): the queue empties soon after.
    await waitFor(async () => ((await holder.outboundQueue?.size()) === 0 ? true : undefined), 10_000)
    expect(await holder.outboundQueue?.size()).toBe(0)
  })

  it('drops an envelope sent again after it was taken: not processed twice, both exchanges stay done', async () => {
    const issuer = await start()
    const holder = await start()
    const { offer, holderRecord } = await anOfferReceived(issuer, holder)
    // Every earlier message (the connection's) delivered, so the issuer misses only the request.
    await waitFor(async () => ((await holder.outboundQueue?.size()) === 0 ? true : undefined))
    // The request is kept while the issuer is away: its envelope, as a resend after a lost answer would carry it.
    await issuer.close({ keepSchema: true })
    await holder.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: holderRecord.id,
      autoAcceptCredential: DidCommAutoAcceptCredential.Always,
    })
    // Its first attempt failed. (A delivered message's row may still be there until the next poll deletes it in a
    // batch, so the query asks for attempted rows only.)
    const rows = await waitFor(async () => {
      const { rows } = await holder.sql.query<{ endpoint: string; payload: string }>(
        'SELECT endpoint, payload FROM outbound_messages WHERE attempts > 0',
      )
      return rows.length > 0 ? rows : undefined
    })
    expect(rows).toHaveLength(1)
    const issuerAgain = await start({ schema: issuer.schema, port: issuer.port })
    const done = async (agent: InProcessAgent, id: string) =>
      (await agent.agent.didcomm.credentials.getById(id)).state === DidCommCredentialState.Done ? true : undefined
    await waitFor(() => done(holder, holderRecord.id))
    await waitFor(() => done(issuerAgain, offer.id))

    const [{ endpoint, payload }] = rows
    const again = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/didcomm-envelope-enc' },
      body: payload,
    })
    expect(again.status).toBe(200)
    // Dropped, not processed: processed again, Credo would refuse it as an error (the issuer's record is done).
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const holderAfter = await holder.agent.didcomm.credentials.getById(holderRecord.id)
    const issuerAfter = await issuerAgain.agent.didcomm.credentials.getById(offer.id)
    expect([holderAfter.state, holderAfter.errorMessage]).toEqual([DidCommCredentialState.Done, undefined])
    expect([issuerAfter.state, issuerAfter.errorMessage]).toEqual([DidCommCredentialState.Done, undefined])
    const digests = await issuerAgain.sql.query('SELECT 1 FROM inbound_envelopes WHERE digest = $1', [
      TakenEnvelopes.digestOf(payload),
    ])
    expect(digests.rows).toHaveLength(1)
  })

  it('keeps a message that an agent which is stopping refused (503), and delivers it to the next process', async () => {
    const issuer = await start()
    const holder = await start()
    const { offer, holderRecord } = await anOfferReceived(issuer, holder)
    await waitFor(async () => ((await holder.outboundQueue?.size()) === 0 ? true : undefined))
    // The issuer begins to stop (as its program does first when told to): it takes nothing new.
    const inbound = issuer.agent.didcomm.inboundTransports.find(
      (transport) => transport instanceof DidCommNodeHttpInboundTransport,
    )
    if (!inbound) throw new Error('the issuer has no node:http inbound transport')
    inbound.refuseNewMessages()
    await holder.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: holderRecord.id,
      autoAcceptCredential: DidCommAutoAcceptCredential.Always,
    })
    const [row] = await waitFor(async () => {
      const { rows } = await holder.sql.query<{ last_error: string }>(
        'SELECT last_error FROM outbound_messages WHERE attempts > 0',
      )
      return rows.length > 0 ? rows : undefined
    })
    expect(row.last_error).toMatch(/answered HTTP 503/)
    // Not taken: the issuer's exchange did not move.
    expect((await issuer.agent.didcomm.credentials.getById(offer.id)).state).toBe(DidCommCredentialState.OfferSent)

    await issuer.close({ keepSchema: true })
    const issuerAgain = await start({ schema: issuer.schema, port: issuer.port })
    const done = async (agent: InProcessAgent, id: string) =>
      (await agent.agent.didcomm.credentials.getById(id)).state === DidCommCredentialState.Done ? true : undefined
    await waitFor(() => done(holder, holderRecord.id))
    await waitFor(() => done(issuerAgain, offer.id))
  })

  it('writes a message before its first attempt: one cut by the process dying is sent by the next process', async () => {
    const schema = randomSchemaName('outbound_queue')
    const sql = await PgSqlClient.connect(TEST_DATABASE_URL, schema)
    try {
      await migrateSchema(sql)
      const options = { ...QUEUE, firstAttemptLeaseMs: 1500 }
      const cut = new OutboundQueue(sql, options, silentLogger)
      const id = await cut.begin('http://127.0.0.1:9/', '{"protected":"x"}')
      // The process dies here, during the attempt: neither taken nor failed. The next one starts.
      const delivered: QueuedMessage[] = []
      const next = new OutboundQueue(sql, options, silentLogger)
      next.start(async (message) => {
        delivered.push(message)
      })
      // Not while the attempt may still be running somewhere.
      await new Promise((resolve) => setTimeout(resolve, 700))
      expect(delivered).toEqual([])
      await waitFor(async () => (delivered.length > 0 ? true : undefined))
      expect(delivered).toEqual([{ id, endpoint: 'http://127.0.0.1:9/', payload: '{"protected":"x"}', attempts: 0 }])
      await waitFor(async () => ((await next.size()) === 0 ? true : undefined))
      await next.stop()

      // A first attempt that delivers leaves nothing; one that fails is kept for the backoff.
      const taken = await next.begin('http://127.0.0.1:9/', '{}')
      next.taken(taken)
      const failed = await next.begin('http://127.0.0.1:9/', '{}')
      await next.failed(failed, 'http://127.0.0.1:9/', 'connect ECONNREFUSED')
      // Delivered rows go in a batch (at the next poll, or at the latest when the queue stops).
      await next.stop()
      const { rows } = await sql.query<{ id: string; attempts: number; last_error: string }>(
        'SELECT id::text AS id, attempts, last_error FROM outbound_messages',
      )
      expect(rows).toEqual([{ id: failed, attempts: 1, last_error: 'connect ECONNREFUSED' }])
    } finally {
      await sql.query(`DROP SCHEMA "${schema}" CASCADE`)
      await sql.close()
    }
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
