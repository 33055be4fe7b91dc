import { RateLimitedError } from '@idplane/common'
import { ConcurrencyGate } from './concurrency-gate'

/** A task the test finishes by hand, so "running at once" is observed without timing. */
function controllable(): { promise: Promise<void>; finish: () => void; started: boolean; start: () => Promise<void> } {
  let finish = () => {}
  const handle = {
    started: false,
    promise: new Promise<void>((resolve) => {
      finish = resolve
    }),
    finish: () => finish(),
    start: async () => {
      handle.started = true
      await handle.promise
    },
  }
  return handle
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('ConcurrencyGate', () => {
  it('runs at most `concurrency` tasks, queues up to `maxQueued` in order, and refuses the rest at once', async () => {
    const gate = new ConcurrencyGate({ concurrency: 2, maxQueued: 1, busyMessage: 'busy', retryAfterSeconds: 3 })
    const tasks = [controllable(), controllable(), controllable()]
    const runs = tasks.map((task) => gate.run(task.start))
    await settle()
    expect(tasks.map((task) => task.started)).toEqual([true, true, false])
    expect(gate.stats).toEqual({ running: 2, queued: 1 })

    const refused = await gate.run(async () => 'never').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RateLimitedError)
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(3)

    tasks[0]?.finish()
    await settle()
    expect(tasks[2]?.started).toBe(true)
    expect(gate.stats).toEqual({ running: 2, queued: 0 })
    tasks[1]?.finish()
    tasks[2]?.finish()
    await Promise.all(runs)
    expect(gate.stats).toEqual({ running: 0, queued: 0 })
  })

  it('frees the slot of a task that fails', async () => {
    const gate = new ConcurrencyGate({ concurrency: 1, maxQueued: 0, busyMessage: 'busy' })
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(gate.run(async () => 'ok')).resolves.toBe('ok')
  })

  it("refuses a client's task past its share of the queue while other clients still queue", async () => {
    const gate = new ConcurrencyGate({ concurrency: 1, maxQueued: 4, maxQueuedPerClient: 2, busyMessage: 'busy' })
    const flood = [controllable(), controllable(), controllable()]
    const runs = flood.map((task) => gate.run(task.start, 'flooder'))
    await settle()
    expect(gate.stats).toEqual({ running: 1, queued: 2 })
    await expect(gate.run(async () => 'never', 'flooder')).rejects.toBeInstanceOf(RateLimitedError)
    const other = controllable()
    const otherRun = gate.run(other.start, 'someone else')
    await settle()
    expect(gate.stats).toEqual({ running: 1, queued: 3 })
    for (const task of [...flood, other]) task.finish()
    await Promise.all([...runs, otherRun])
  })

  it('gives a freed slot to the clients in turn: one behind a flood waits one task, not the flood', async () => {
    const gate = new ConcurrencyGate({ concurrency: 1, maxQueued: 10, maxQueuedPerClient: 10, busyMessage: 'busy' })
    const order: string[] = []
    const job = (name: string) => async () => {
      order.push(name)
      await settle()
    }
    const runs = [1, 2, 3, 4].map((n) => gate.run(job(`flood-${n}`), 'flooder'))
    runs.push(gate.run(job('user'), 'user'))
    runs.push(gate.run(job('flood-5'), 'flooder'))
    await Promise.all(runs)
    // flood-1 held the slot; the user's turn comes right after the flooder's next one.
    expect(order).toEqual(['flood-1', 'flood-2', 'user', 'flood-3', 'flood-4', 'flood-5'])
  })

  it('keeps a slot free for other clients while one client floods (maxRunningPerClient)', async () => {
    const gate = new ConcurrencyGate({
      concurrency: 2,
      maxQueued: 8,
      maxQueuedPerClient: 2,
      maxRunningPerClient: 1,
      busyMessage: 'busy',
    })
    const flood = [controllable(), controllable(), controllable()]
    const runs = flood.map((task) => gate.run(task.start, 'flooder'))
    await settle()
    expect(flood.map((task) => task.started)).toEqual([true, false, false])
    expect(gate.stats).toEqual({ running: 1, queued: 2 })
    const user = controllable()
    const userRun = gate.run(user.start, 'user')
    await settle()
    expect(user.started).toBe(true)
    user.finish()
    await userRun
    flood[0]?.finish()
    await settle()
    expect(flood[1]?.started).toBe(true)
    for (const task of flood) task.finish()
    await Promise.all(runs)
    expect(gate.stats).toEqual({ running: 0, queued: 0 })
  })
})
