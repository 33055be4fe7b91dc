import { silentLogger } from '@idplane/common'
import { WorkQueue } from './workqueue'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function deferred() {
  let resolve: () => void = () => undefined
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

describe('WorkQueue', () => {
  let queue: WorkQueue
  afterEach(() => queue.shutdown())

  it('runs a key added several times while waiting once', async () => {
    const runs: string[] = []
    queue = new WorkQueue({ workers: 1, logger: silentLogger })
    queue.add('a')
    queue.add('a')
    queue.add('b')
    queue.add('a')
    queue.start(async (key) => {
      runs.push(key)
      return {}
    })
    await sleep(20)
    expect(runs).toEqual(['a', 'b'])
  })

  it('never runs one key on two workers at once, and runs it again when it was added meanwhile', async () => {
    const gate = deferred()
    let running = 0
    let maxRunning = 0
    let runs = 0
    queue = new WorkQueue({ workers: 4, logger: silentLogger })
    queue.start(async () => {
      running += 1
      runs += 1
      maxRunning = Math.max(maxRunning, running)
      if (runs === 1) await gate.promise
      running -= 1
      return {}
    })
    queue.add('a')
    await sleep(5)
    queue.add('a')
    queue.add('a')
    await sleep(5)
    expect(runs).toBe(1)
    gate.resolve()
    await sleep(20)
    expect(runs).toBe(2)
    expect(maxRunning).toBe(1)
  })

  it('runs different keys in parallel up to the worker count', async () => {
    const gate = deferred()
    let running = 0
    let maxRunning = 0
    queue = new WorkQueue({ workers: 3, logger: silentLogger })
    queue.start(async () => {
      running += 1
      maxRunning = Math.max(maxRunning, running)
      await gate.promise
      running -= 1
      return {}
    })
    for (const key of ['a', 'b', 'c', 'd', 'e']) queue.add(key)
    await sleep(10)
    expect(maxRunning).toBe(3)
    gate.resolve()
  })

  it('retries a failing key with exponential backoff and resets it after a success', async () => {
    const times: number[] = []
    const succeeded = deferred()
    queue = new WorkQueue({ workers: 1, baseDelayMs: 20, maxDelayMs: 1000, logger: silentLogger })
    queue.start(async () => {
      times.push(Date.now())
      if (times.length <= 3) throw new Error('not yet')
      succeeded.resolve()
      return {}
    })
    queue.add('a')
    // Waits for the success itself: a fixed wait (300 ms for 140 ms of backoff) ran out on a loaded machine.
    await succeeded.promise
    await sleep(50)
    expect(times).toHaveLength(4)
    const gaps = times.slice(1).map((time, index) => time - times[index])
    expect(gaps[0]).toBeGreaterThanOrEqual(18)
    expect(gaps[1]).toBeGreaterThanOrEqual(38)
    expect(gaps[2]).toBeGreaterThanOrEqual(78)
    expect(queue.failureCount('a')).toBe(0)
  })

  it('caps the backoff at maxDelayMs', () => {
    queue = new WorkQueue({ workers: 1, baseDelayMs: 100, maxDelayMs: 250, logger: silentLogger })
    const delays: number[] = []
    const original = queue.addAfter.bind(queue)
    queue.addAfter = (key, ms) => {
      delays.push(ms)
      original(key, ms)
    }
    for (let index = 0; index < 4; index++) queue.addRateLimited('a')
    expect(delays).toEqual([100, 200, 250, 250])
  })

  it('requeues after the delay a handler asks for, keeping the earliest of two delays', async () => {
    const times: number[] = []
    queue = new WorkQueue({ workers: 1, logger: silentLogger })
    const started = Date.now()
    queue.start(async () => {
      times.push(Date.now() - started)
      return times.length === 1 ? { requeueAfterMs: 200 } : {}
    })
    queue.add('a')
    await sleep(10)
    queue.addAfter('a', 40)
    await sleep(100)
    expect(times).toHaveLength(2)
    expect(times[1]).toBeGreaterThanOrEqual(40)
    expect(times[1]).toBeLessThan(150)
  })

  it('reports each outcome with its duration', async () => {
    const outcomes: string[] = []
    queue = new WorkQueue({
      workers: 1,
      baseDelayMs: 1000,
      logger: silentLogger,
      onResult: (outcome) => outcomes.push(outcome),
    })
    queue.start(async (key) => {
      if (key === 'bad') throw new Error('boom')
      return key === 'later' ? { requeueAfterMs: 1000 } : {}
    })
    queue.add('ok')
    queue.add('later')
    queue.add('bad')
    await sleep(20)
    expect(outcomes).toEqual(['success', 'requeue', 'error'])
  })

  it('waits for running handlers on shutdown and takes no new keys', async () => {
    const gate = deferred()
    let finished = false
    queue = new WorkQueue({ workers: 1, logger: silentLogger })
    queue.start(async () => {
      await gate.promise
      finished = true
      return {}
    })
    queue.add('a')
    await sleep(5)
    const shutdown = queue.shutdown()
    queue.add('b')
    gate.resolve()
    await shutdown
    expect(finished).toBe(true)
    expect(queue.length()).toBe(0)
  })
})
