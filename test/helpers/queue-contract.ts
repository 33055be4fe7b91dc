import { InvalidInputError, InvalidStateError } from '@idplane/common'
import { DEATH_REASON_HEADER, DEAD_LETTERED_AT_HEADER, Queue, QueueMessage } from '../../api/src/infra/queue/queue'

/**
 * Behaviour both Queue implementations must show, run by in-process-queue.test.ts and by
 * test/integration/queue-amqp.int.test.ts. Lives beside the interface so that both can import it.
 */
export interface QueueContractHarness {
  /** A new, not yet started queue (several may share one backing store: data directory or broker). */
  create(): Queue
  /** A queue name no other test uses; the harness deletes what it created. */
  queueName(label: string): string
}

export function describeQueueContract(name: string, harness: QueueContractHarness): void {
  describe(`${name} (Queue contract)`, () => {
    const open: Queue[] = []

    async function started(): Promise<Queue> {
      const queue = harness.create()
      open.push(queue)
      await queue.start()
      return queue
    }

    afterEach(async () => {
      await Promise.all(open.splice(0).map((queue) => queue.close()))
    })

    it('delivers a published message with its id, headers, attempt 1 and a JSON copy of the payload', async () => {
      const queue = await started()
      const name = harness.queueName('roundtrip')
      const received = collect()
      await queue.consume(name, received.handler)
      const id = await queue.publish(
        name,
        { n: 1, at: new Date(0) },
        { id: 'message-1', headers: { 'x-org': 'org-1' } },
      )
      const [message] = await received.waitFor(1)
      expect(id).toBe('message-1')
      expect(message).toEqual({
        id: 'message-1',
        queue: name,
        payload: { n: 1, at: '1970-01-01T00:00:00.000Z' },
        attempt: 1,
        headers: { 'x-org': 'org-1' },
      })
    })

    it('generates a message id when none is given and starts idempotently', async () => {
      const queue = await started()
      await queue.start()
      const name = harness.queueName('generated-id')
      const id = await queue.publish(name, 'hello')
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      const received = collect()
      await queue.consume(name, received.handler)
      expect((await received.waitFor(1))[0]).toMatchObject({ id, payload: 'hello' })
      expect(await queue.isHealthy()).toBe(true)
    })

    it('retries a failing handler after the configured delays, then acks on success', async () => {
      const queue = await started()
      const name = harness.queueName('retry')
      const seen: { attempt: number; at: number }[] = []
      const done = deferred<void>()
      await queue.consume(
        name,
        async (message) => {
          seen.push({ attempt: message.attempt, at: Date.now() })
          if (message.attempt < 3) throw new Error(`transient failure ${message.attempt}`)
          done.resolve()
        },
        { maxAttempts: 5, retryDelaysMs: [200, 400] },
      )
      await queue.publish(name, { job: 'retry' })
      await within(done.promise, 10_000)
      expect(seen.map((entry) => entry.attempt)).toEqual([1, 2, 3])
      expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(180)
      expect(seen[2].at - seen[1].at).toBeGreaterThanOrEqual(380)
      await sleep(300)
      expect(seen).toHaveLength(3)
      expect(await queue.deadLetters(name)).toEqual([])
    })

    it('moves a message to <queue>.dead after maxAttempts and lets ops peek at it', async () => {
      const queue = await started()
      const name = harness.queueName('dead')
      const attempts: number[] = []
      await queue.consume(
        name,
        async (message) => {
          attempts.push(message.attempt)
          throw new Error('permanent failure')
        },
        { maxAttempts: 3, retryDelaysMs: [50] },
      )
      await queue.publish(name, { job: 'dead' }, { id: 'dead-1', headers: { 'x-org': 'org-1' } })
      const dead = await eventually(async () => {
        const letters = await queue.deadLetters(name)
        return letters.length === 1 ? letters : undefined
      }, 10_000)
      expect(attempts).toEqual([1, 2, 3])
      expect(dead[0]).toMatchObject({
        id: 'dead-1',
        payload: { job: 'dead' },
        attempt: 3,
        headers: { 'x-org': 'org-1' },
      })
      expect(dead[0].headers[DEATH_REASON_HEADER]).toBe('Error: permanent failure')
      expect(Date.parse(dead[0].headers[DEAD_LETTERED_AT_HEADER])).not.toBeNaN()
      expect(await queue.deadLetters(name)).toHaveLength(1)
      await sleep(200)
      expect(attempts).toHaveLength(3)
    })

    it('runs at most prefetch handlers at once', async () => {
      const queue = await started()
      const name = harness.queueName('prefetch')
      let running = 0
      let peak = 0
      const received = collect(async () => {
        running++
        peak = Math.max(peak, running)
        await sleep(50)
        running--
      })
      await queue.consume(name, received.handler, { prefetch: 2 })
      await Promise.all([1, 2, 3, 4, 5, 6].map((n) => queue.publish(name, n)))
      const messages = await received.waitFor(6)
      expect(messages.map((message) => message.payload).sort()).toEqual([1, 2, 3, 4, 5, 6])
      expect(peak).toBe(2)
    })

    it('waits for a running handler on close and delivers nothing after', async () => {
      const queue = await started()
      const name = harness.queueName('close')
      const release = deferred<void>()
      const started1 = deferred<void>()
      let finished = false
      await queue.consume(name, async () => {
        started1.resolve()
        await release.promise
        finished = true
      })
      await queue.publish(name, 'slow')
      await within(started1.promise, 5_000)
      const closing = queue.close()
      await sleep(100)
      expect(finished).toBe(false)
      release.resolve()
      await closing
      expect(finished).toBe(true)
      expect(await queue.isHealthy()).toBe(false)
      await expect(queue.publish(name, 'late')).rejects.toBeInstanceOf(InvalidStateError)
    })

    it('acknowledged messages are not delivered again to the next instance', async () => {
      const first = await started()
      const name = harness.queueName('acked')
      const received = collect()
      await first.consume(name, received.handler)
      await first.publish(name, 'once')
      await received.waitFor(1)
      await sleep(100)
      await first.close()
      const second = await started()
      const again = collect()
      await second.consume(name, again.handler)
      await sleep(300)
      expect(again.messages).toEqual([])
    })

    it('rejects misuse: publish before start, bad names and bad options, a second consumer on one queue', async () => {
      const fresh = harness.create()
      open.push(fresh)
      await expect(fresh.publish(harness.queueName('early'), 1)).rejects.toBeInstanceOf(InvalidStateError)
      const queue = await started()
      const name = harness.queueName('misuse')
      await expect(queue.publish('../escape', 1)).rejects.toBeInstanceOf(InvalidInputError)
      await expect(queue.publish(`${name}.dead`, 1)).rejects.toBeInstanceOf(InvalidInputError)
      await expect(queue.consume(name, async () => undefined, { prefetch: 0 })).rejects.toBeInstanceOf(
        InvalidInputError,
      )
      await queue.consume(name, async () => undefined)
      await expect(queue.consume(name, async () => undefined)).rejects.toBeInstanceOf(InvalidStateError)
    })
  })
}

export interface Collector {
  messages: QueueMessage[]
  handler: (message: QueueMessage) => Promise<void>
  waitFor(count: number, timeoutMs?: number): Promise<QueueMessage[]>
}

/** A handler that records messages (after `work`, if given). */
export function collect(work?: (message: QueueMessage) => Promise<void>): Collector {
  const messages: QueueMessage[] = []
  return {
    messages,
    handler: async (message) => {
      if (work) await work(message)
      messages.push(message)
    },
    waitFor: (count, timeoutMs = 10_000) =>
      eventually(async () => (messages.length >= count ? messages : undefined), timeoutMs),
  }
}

export interface Deferred<T> {
  promise: Promise<T>
  resolve: (value: T) => void
  reject: (error: Error) => void
}

export function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined
  let reject: (error: Error) => void = () => undefined
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Polls `probe` every 25 ms until it returns a value; rejects after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`)
    await sleep(25)
  }
}

export async function within<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Not settled within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}
