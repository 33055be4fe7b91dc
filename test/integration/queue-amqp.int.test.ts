import { randomUUID } from 'node:crypto'
import net from 'node:net'
import { ChannelModel, connect } from 'amqplib'
import { Registry } from 'prom-client'
import { Logger, UpstreamError, silentLogger } from '@idplane/common'
import { AmqpQueue, AmqpQueueOptions } from '../../api/src/infra/queue/amqp-queue'
import { retryQueueName } from '../../api/src/infra/queue/amqp-message'
import { DEFAULT_RETRY_DELAYS_MS } from '../../api/src/infra/queue/queue'
import { collect, deferred, describeQueueContract, eventually, sleep, within } from '../helpers/queue-contract'
import { freePort } from '../helpers/ports'

// The RabbitMQ every machine of this kind runs (DESIGN.md, "Facts checked"). Queue names are unique per
// run and deleted afterwards; the broker is shared with other work, so nothing here closes connections
// that this file did not open.
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672'
const RUN = `idplane-test-${randomUUID().slice(0, 8)}`
const ALL_TEST_DELAYS = [50, 100, 200, 300, 400, ...DEFAULT_RETRY_DELAYS_MS]
const created = new Set<string>()
let sequence = 0
let admin: ChannelModel

function queueName(label: string): string {
  const name = `${RUN}.${label}-${++sequence}`
  created.add(name)
  return name
}

function newQueue(overrides: Partial<AmqpQueueOptions> = {}): AmqpQueue {
  return new AmqpQueue({
    url: AMQP_URL,
    logger: silentLogger,
    registry: new Registry(),
    reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
    publishTimeoutMs: 5_000,
    closeTimeoutMs: 5_000,
    ...overrides,
  })
}

/** Kills the queue's TCP connection under it, like a broker restart or a network cut would. */
function destroySocket(queue: AmqpQueue): void {
  const internals = queue as unknown as { connection: { connection?: { connection: { stream: net.Socket } } } }
  const socket = internals.connection.connection?.connection.stream
  if (!socket) throw new Error('queue has no connection')
  // With an error, as a reset connection would be; a bare destroy() emits neither 'end' nor 'error'.
  socket.destroy(new Error('connection cut by test'))
}

beforeAll(async () => {
  admin = await connect(AMQP_URL)
})

afterAll(async () => {
  const channel = await admin.createChannel()
  for (const name of created) {
    for (const queue of [name, `${name}.dead`, ...ALL_TEST_DELAYS.map((delay) => retryQueueName(name, delay))]) {
      await channel.deleteQueue(queue)
    }
  }
  await channel.close()
  await admin.close()
})

describeQueueContract('AmqpQueue', { create: () => newQueue(), queueName })

describe('AmqpQueue with RabbitMQ', () => {
  const open: AmqpQueue[] = []

  async function started(overrides: Partial<AmqpQueueOptions> = {}): Promise<AmqpQueue> {
    const queue = newQueue(overrides)
    open.push(queue)
    await queue.start()
    return queue
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close()))
  })

  it('resolves publish once the broker holds the message as a persistent message', async () => {
    const queue = await started()
    const name = queueName('confirm')
    await queue.publish(name, { n: 1 }, { id: 'c-1', headers: { 'x-org': 'o' } })
    const channel = await admin.createChannel()
    try {
      expect((await channel.checkQueue(name)).messageCount).toBe(1)
      const delivery = await channel.get(name, { noAck: true })
      if (!delivery) throw new Error('no message')
      expect(delivery.properties).toMatchObject({ deliveryMode: 2, messageId: 'c-1', contentType: 'application/json' })
      expect(delivery.properties.headers).toMatchObject({ 'x-org': 'o', 'x-idplane-attempt': 1 })
      expect(JSON.parse(delivery.content.toString())).toEqual({ n: 1 })
    } finally {
      await channel.close()
    }
  })

  it('declares one retry queue per delay whose TTL routes messages back to the queue', async () => {
    const queue = await started()
    const name = queueName('topology')
    await queue.consume(name, async () => undefined, { maxAttempts: 3, retryDelaysMs: [100, 300] })
    const channel = await admin.createChannel()
    try {
      for (const queueToCheck of [name, `${name}.dead`, retryQueueName(name, 100), retryQueueName(name, 300)]) {
        await channel.checkQueue(queueToCheck)
      }
    } finally {
      await channel.close()
    }
  })

  it("redelivers an unacked message to another consumer after the first consumer's connection dies", async () => {
    const name = queueName('unacked')
    const first = await started()
    const inHandler = deferred<void>()
    const release = deferred<void>()
    await first.consume(name, async () => {
      inHandler.resolve()
      await release.promise
    })
    await first.publish(name, 'work', { id: 'u-1' })
    await within(inHandler.promise, 5_000)

    const second = await started()
    const received = collect()
    await second.consume(name, received.handler)
    await sleep(200)
    expect(received.messages).toEqual([])
    destroySocket(first)
    expect((await received.waitFor(1))[0]).toMatchObject({ id: 'u-1', attempt: 1, payload: 'work' })
    release.resolve()
  })

  it('resubscribes a consumer whose channel closed while the connection stayed up, and gets the unacked message again', async () => {
    const queue = await started()
    const name = queueName('channel-death')
    const deliveries: string[] = []
    const firstDelivery = deferred<void>()
    const release = deferred<void>()
    await queue.consume(name, async (message) => {
      deliveries.push(message.id)
      if (deliveries.length === 1) {
        firstDelivery.resolve()
        await release.promise
      }
    })
    await queue.publish(name, 'x', { id: 'ch-1' })
    await within(firstDelivery.promise, 5_000)
    const internals = queue as unknown as { consumers: Map<string, { channel?: { close(): Promise<void> } }> }
    await internals.consumers.get(name)?.channel?.close()
    await eventually(async () => (deliveries.length === 2 ? true : undefined), 5_000)
    expect(deliveries).toEqual(['ch-1', 'ch-1'])
    release.resolve()
  })

  it('dead-letters a message whose body is not JSON without calling the handler', async () => {
    const queue = await started()
    const name = queueName('poison')
    const received = collect()
    await queue.consume(name, received.handler)
    const channel = await admin.createConfirmChannel()
    channel.sendToQueue(name, Buffer.from('{not json'), { messageId: 'poison-1', persistent: true })
    await channel.waitForConfirms()
    await channel.close()
    const dead = await eventually(async () => {
      const letters = await queue.deadLetters(name)
      return letters.length === 1 ? letters : undefined
    }, 5_000)
    expect(received.messages).toEqual([])
    expect(dead[0]).toMatchObject({ id: 'poison-1', payload: '{not json' })
    expect(dead[0].headers['x-death-reason']).toMatch(/^InvalidInputError: Queue message body is not JSON/)
  })

  it('reconnects after the connection is cut: a publish during the outage waits and succeeds, consumers come back', async () => {
    const registry = new Registry()
    const queue = await started({ registry })
    const name = queueName('reconnect')
    const received = collect()
    await queue.consume(name, received.handler)
    await queue.publish(name, 'before')
    await received.waitFor(1)

    destroySocket(queue)
    await eventually(async () => ((await queue.isHealthy()) ? undefined : true), 2_000)
    const startedAt = Date.now()
    await queue.publish(name, 'during')
    const publishMs = Date.now() - startedAt
    await eventually(
      async () => (received.messages.some((message) => message.payload === 'during') ? true : undefined),
      10_000,
    )
    // At least once: when the cut lands before the ack of 'before' left (a loaded machine), RabbitMQ delivers it again.
    expect([...new Set(received.messages.map((message) => message.payload))]).toEqual(['before', 'during'])
    expect(await queue.isHealthy()).toBe(true)
    expect(publishMs).toBeLessThan(5_000)
    const reconnects = await registry.getSingleMetric('idplane_api_queue_reconnects_total')?.get()
    expect(reconnects?.values[0]?.value).toBe(1)
  })

  it('fails a publish with UpstreamError when the broker stays away longer than the bound, and recovers when it is back', async () => {
    const proxy = await startProxy()
    const url = `amqp://guest:guest@127.0.0.1:${proxy.port}`
    const queue = await started({ url, publishTimeoutMs: 800, reconnect: { initialDelayMs: 50, maxDelayMs: 200 } })
    const name = queueName('outage')
    const received = collect()
    await queue.consume(name, received.handler)
    try {
      await proxy.stop()
      const startedAt = Date.now()
      await expect(queue.publish(name, 'lost')).rejects.toBeInstanceOf(UpstreamError)
      const waitedMs = Date.now() - startedAt
      expect(waitedMs).toBeGreaterThanOrEqual(700)
      expect(waitedMs).toBeLessThan(3_000)

      await proxy.resume()
      await eventually(async () => ((await queue.isHealthy()) ? true : undefined), 5_000)
      await queue.publish(name, 'after')
      expect((await received.waitFor(1)).map((message) => message.payload)).toEqual(['after'])
    } finally {
      await queue.close()
      await proxy.stop()
    }
  })

  it('fails start with UpstreamError, never logging the password, when no broker listens', async () => {
    const lines: string[] = []
    const logger = new Logger({}, 'debug', { write: (line) => void lines.push(line) })
    const port = await freePort()
    const queue = newQueue({ url: `amqp://user:s3cret-pw@127.0.0.1:${port}`, logger })
    const error = await queue.start().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(String(error)).not.toContain('s3cret-pw')
    expect(lines.join('')).not.toContain('s3cret-pw')
    await queue.close()
  })
})

interface Proxy {
  port: number
  stop(): Promise<void>
  resume(): Promise<void>
}

/** A TCP proxy to the broker that the test can take down and bring back on the same port. */
async function startProxy(): Promise<Proxy> {
  const target = new URL(AMQP_URL)
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const created = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5672), target.hostname)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('error', () => undefined)
          socket.on('close', () => {
            sockets.delete(socket)
            client.destroy()
            upstream.destroy()
          })
        }
        client.pipe(upstream).pipe(client)
      })
      created.once('error', reject)
      created.listen(port, '127.0.0.1', () => {
        server = created
        const address = created.address()
        resolve(typeof address === 'object' && address ? address.port : port)
      })
    })
  const port = await listen(0)
  return {
    port,
    stop: async () => {
      const current = server
      server = undefined
      for (const socket of sockets) socket.destroy()
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
    },
    resume: async () => {
      await listen(port)
    },
  }
}
