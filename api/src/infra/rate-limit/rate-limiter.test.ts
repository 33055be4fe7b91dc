import { RateLimitedError, silentLogger } from '@idplane/common'
import { InMemoryRateLimitStore } from '../../../../test/helpers/auth-fakes'
import { RateLimiter, rateLimitKey, windowStartOf } from './rate-limiter'

const T0 = new Date('2026-11-21T10:00:00.000Z')
const rule = { limit: 3, windowSeconds: 60 }

describe('RateLimiter', () => {
  let store: InMemoryRateLimitStore
  let sut: RateLimiter

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] })
    store = new InMemoryRateLimitStore()
    sut = new RateLimiter(store, silentLogger, { retentionSeconds: 600 })
  })

  afterEach(() => {
    jest.useRealTimers()
  })

  it('allows hits up to the limit and refuses the next one in the same window', async () => {
    const outcomes = []
    for (let i = 0; i < 4; i++) outcomes.push(await sut.hit('k', rule))
    expect(outcomes.map((outcome) => outcome.isAllowed)).toEqual([true, true, true, false])
    expect(outcomes.map((outcome) => outcome.count)).toEqual([1, 2, 3, 4])
  })

  it('starts counting again in the next window', async () => {
    for (let i = 0; i < 4; i++) await sut.hit('k', rule)
    jest.setSystemTime(new Date(T0.getTime() + 60_000))
    expect(await sut.hit('k', rule)).toMatchObject({ count: 1, isAllowed: true })
  })

  it('aligns windows to the epoch and reports the seconds left in the window', async () => {
    jest.setSystemTime(new Date(T0.getTime() + 45_500))
    expect(windowStartOf(new Date(), 60)).toEqual(T0)
    expect((await sut.hit('k', rule)).retryAfterSeconds).toBe(15)
    jest.setSystemTime(new Date(T0.getTime() + 59_990))
    expect((await sut.hit('k', rule)).retryAfterSeconds).toBe(1)
  })

  it('keeps separate counters per key', async () => {
    for (let i = 0; i < 3; i++) await sut.hit('a', rule)
    expect(await sut.hit('b', rule)).toMatchObject({ count: 1, isAllowed: true })
  })

  it('enforce() charges every check and throws with the longest wait when one is over', async () => {
    const short = { limit: 1, windowSeconds: 10 }
    const long = { limit: 1, windowSeconds: 600 }
    await sut.enforce(
      [
        { key: 'ip', rule: short },
        { key: 'address', rule: long },
      ],
      'Too many',
    )
    const failure = await sut
      .enforce(
        [
          { key: 'ip', rule: short },
          { key: 'address', rule: long },
        ],
        'Too many',
      )
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RateLimitedError)
    expect((failure as RateLimitedError).retryAfterSeconds).toBe(600)
    expect((failure as RateLimitedError).message).toBe('Too many')
    expect([...store.counters.values()].map((counter) => counter.count)).toEqual([2, 2])
  })

  it('sweeps windows older than the retention at most once per interval', async () => {
    await sut.hit('old', rule)
    expect(store.sweeps).toHaveLength(1)
    jest.setSystemTime(new Date(T0.getTime() + 30_000))
    await sut.hit('k', rule)
    expect(store.sweeps).toHaveLength(1)
    jest.setSystemTime(new Date(T0.getTime() + 700_000))
    await sut.hit('k', rule)
    expect(store.sweeps).toHaveLength(2)
    expect(store.sweeps[1]).toEqual(new Date(T0.getTime() + 100_000))
    expect([...store.counters.values()].map((counter) => counter.key)).toEqual(['k'])
  })

  it('keys hide the subject behind a digest', () => {
    const key = rateLimitKey('signin-address', 'alice@example.com')
    expect(key).toMatch(/^signin-address:[A-Za-z0-9_-]{43}$/)
    expect(key).not.toContain('alice')
  })
})
