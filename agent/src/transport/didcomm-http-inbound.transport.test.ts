import type { AgentContext } from '@credo-ts/core'
import { DidCommMessageHandlerRegistry, DidCommMessageReceiver } from '@credo-ts/didcomm'
import { silentLogger } from '@idplane/common'

import { PgliteSqlClient } from '../adapters/sql/pglite-sql-client'
import { migrateSchema } from '../adapters/sql/schema-migrations'
import { freePort } from '../../../test/helpers/ports'
import { DidCommNodeHttpInboundTransport } from './didcomm-http-inbound.transport'
import { TakenEnvelopes } from './taken-envelopes'

type Middleware = (context: { encryptedMessage?: unknown }, next: () => Promise<void>) => Promise<void>
interface Session {
  close(): Promise<void>
}

/**
 * Stands in for Credo's receiver, in its order: the session of a message without return routing is closed, the
 * registered middleware runs around the handler, then the handler's answers are sent. Each handler waits until the
 * test makes it succeed or fail (in order); sending waits until the test lets it.
 */
class ScriptedReceiver {
  public readonly calls: unknown[] = []
  public middleware: Middleware | undefined
  private pending: { resolve: () => void; reject: (error: Error) => void }[] = []
  private sent: () => void = () => undefined
  private sending: Promise<void> = Promise.resolve()

  public async receiveMessage(envelope: unknown, { session }: { session: Session }): Promise<void> {
    this.calls.push(envelope)
    await session.close()
    const handler = () => new Promise<void>((resolve, reject) => this.pending.push({ resolve, reject }))
    await (this.middleware ? this.middleware({ encryptedMessage: envelope }, handler) : handler())
    await this.sending
  }

  public async waitForCalls(count: number): Promise<void> {
    while (this.calls.length < count) await new Promise((resolve) => setTimeout(resolve, 10))
  }

  public succeed(): void {
    this.pending.shift()?.resolve()
  }

  public fail(message: string): void {
    this.pending.shift()?.reject(new Error(message))
  }

  /** From now on a handled message's answers are sent only once `sendAnswers` is called. */
  public holdAnswers(): void {
    this.sending = new Promise((resolve) => (this.sent = resolve))
  }

  public sendAnswers(): void {
    this.sent()
  }
}

/** Only what the transport resolves: the receiver (scripted here), the middleware registry, the session registry. */
function anAgentContext(receiver: ScriptedReceiver): AgentContext {
  const transports = { removeSession: () => undefined }
  const registry = { registerMessageHandlerMiddleware: (middleware: Middleware) => (receiver.middleware = middleware) }
  const services = new Map<unknown, unknown>([
    [DidCommMessageReceiver, receiver],
    [DidCommMessageHandlerRegistry, registry],
  ])
  return {
    config: { logger: silentLogger },
    dependencyManager: { resolve: (token: unknown) => services.get(token) ?? transports },
  } as unknown as AgentContext
}

describe('DidCommNodeHttpInboundTransport: resends and stopping', () => {
  let sql: PgliteSqlClient
  let port: number
  let receiver: ScriptedReceiver
  let transport: DidCommNodeHttpInboundTransport

  beforeAll(async () => {
    sql = await PgliteSqlClient.open()
    await migrateSchema(sql)
  })

  afterAll(() => sql.close())

  beforeEach(async () => {
    port = await freePort()
    receiver = new ScriptedReceiver()
    transport = new DidCommNodeHttpInboundTransport({ port, takenEnvelopes: new TakenEnvelopes(sql, silentLogger) })
    await transport.start(anAgentContext(receiver))
  })

  afterEach(async () => {
    // Whatever a test left waiting ends, so the server can close.
    for (let i = 0; i < 5; i++) receiver.succeed()
    receiver.sendAnswers()
    await transport.stop()
  })

  const post = (body: string) =>
    fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/didcomm-envelope-enc' },
      body,
    })
  const envelope = () => JSON.stringify({ protected: 'p', iv: 'i', ciphertext: String(Math.random()), tag: 't' })
  const settledWithin = async (answer: Promise<Response>, ms: number) =>
    Promise.race([answer.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))])

  it('answers a message once its handler has run, not when Credo closes its session, nor after its answers are sent', async () => {
    receiver.holdAnswers()
    const answer = post(envelope())
    await receiver.waitForCalls(1)
    // Credo has closed the session; the handler still runs: a sender answered now would lose the message if this
    // process died.
    expect(await settledWithin(answer, 300)).toBe(false)
    receiver.succeed()
    expect((await answer).status).toBe(200)

    // The answers the handler made are still being sent: the stop waits for them.
    let stopped = false
    const stopping = transport.stop().then(() => (stopped = true))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(stopped).toBe(false)
    receiver.sendAnswers()
    await stopping
  })

  it('answers a resend that arrives while the first is processed only when the first ends, and drops it', async () => {
    const body = envelope()
    const first = post(body)
    await receiver.waitForCalls(1)
    const resend = post(body)
    // Answered now, it would be lost if this process died before the first one's end.
    expect(await settledWithin(resend, 300)).toBe(false)
    receiver.succeed()
    expect((await first).status).toBe(200)
    expect((await resend).status).toBe(200)
    expect(receiver.calls).toHaveLength(1)
    // And later resends are dropped as taken.
    expect((await post(body)).status).toBe(200)
    expect(receiver.calls).toHaveLength(1)
  })

  it('processes a resend whose first processing failed', async () => {
    const body = envelope()
    const first = post(body)
    await receiver.waitForCalls(1)
    const resend = post(body)
    receiver.fail('the database went away')
    expect((await first).status).toBe(500)
    await receiver.waitForCalls(2)
    receiver.succeed()
    expect((await resend).status).toBe(200)
    expect(receiver.calls).toHaveLength(2)
  })

  it('takes no new message once the agent stops (503 with Retry-After), and lets the one being processed end', async () => {
    const inProgress = post(envelope())
    await receiver.waitForCalls(1)
    transport.refuseNewMessages()
    const refused = await post(envelope())
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(receiver.calls).toHaveLength(1)

    // stop() waits for the message being processed.
    const stopped = transport.stop().then(() => true)
    expect(await Promise.race([stopped, new Promise((resolve) => setTimeout(() => resolve(false), 300))])).toBe(false)
    receiver.succeed()
    expect((await inProgress).status).toBe(200)
    expect(await stopped).toBe(true)
  })

  it('refuses, for a resend, a message whose processing failed while the agent stopped', async () => {
    const body = envelope()
    const answer = post(body)
    await receiver.waitForCalls(1)
    transport.refuseNewMessages()
    receiver.fail('Outbound transport is not active. Not sending message.')
    expect((await answer).status).toBe(503)
    // Not recorded as taken: the next process takes it when it comes again.
    expect(
      (await sql.query('SELECT 1 FROM inbound_envelopes WHERE digest = $1', [TakenEnvelopes.digestOf(body)])).rows,
    ).toHaveLength(0)
  })
})
