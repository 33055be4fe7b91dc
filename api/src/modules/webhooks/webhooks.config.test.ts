import { EnvReader } from '@idplane/common'
import { failureOutcome, toRetryPolicy } from '../../infra/queue/retry-policy'
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS, retryDelayAfter, webhooksConfig } from './webhooks.config'

const read = (env: Record<string, string>) => {
  const reader = new EnvReader(env)
  const section = webhooksConfig.read(reader, {} as never)
  return { section, check: () => reader.assertValid('api') }
}

describe('webhook settings', () => {
  it('default to 10 s per POST and 6 attempts 1 s, 5 s, 25 s, 2 min, 10 min apart (about 13 minutes)', () => {
    const { section } = read({})
    expect(section).toEqual(
      expect.objectContaining({
        timeoutMs: 10_000,
        maxAttempts: 6,
        retryDelaysMs: [1_000, 5_000, 25_000, 120_000, 600_000],
      }),
    )
    const total = [1, 2, 3, 4, 5].reduce((sum, attempt) => sum + retryDelayAfter(section, attempt), 0)
    expect(total).toBe(751_000)
  })

  it('take a short schedule for tests, whose last delay repeats', () => {
    const { section } = read({ WEBHOOK_RETRY_DELAYS_MS: '100, 200,400', WEBHOOK_MAX_ATTEMPTS: '6' })
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayAfter(section, attempt))).toEqual([100, 200, 400, 400, 400])
  })

  it('give the row the delay the queue waits before the retry', () => {
    const delays = [100, 200, 400]
    const policy = toRetryPolicy({ maxAttempts: 7, retryDelaysMs: delays })
    for (let attempt = 1; attempt < 7; attempt++) {
      const outcome = failureOutcome(policy, attempt)
      expect(outcome).toEqual(expect.objectContaining({ delayMs: retryDelayAfter({ retryDelaysMs: delays }, attempt) }))
    }
  })

  it.each([
    ['WEBHOOK_RETRY_DELAYS_MS', '1s,2s'],
    ['WEBHOOK_RETRY_DELAYS_MS', '100,,200'],
    ['WEBHOOK_RETRY_DELAYS_MS', '-1'],
    ['WEBHOOK_MAX_ATTEMPTS', '0'],
    ['WEBHOOK_TIMEOUT_MS', '10'],
  ])('refuse %s=%p at start-up, naming the variable', (name, value) => {
    const { check } = read({ [name]: value })
    expect(check).toThrow(name)
  })

  it('keep the default schedule constant', () => {
    expect(DEFAULT_WEBHOOK_RETRY_DELAYS_MS).toEqual([1_000, 5_000, 25_000, 120_000, 600_000])
  })
})
