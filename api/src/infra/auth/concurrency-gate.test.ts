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
})
