import { InvalidInputError } from '@idplane/common'
import { assertQueueName, failureOutcome, toRetryPolicy, usedRetryDelays } from './retry-policy'

describe('retry policy', () => {
  it('applies the default schedule: 1 s, 5 s, 25 s, 2 min, 10 min, then dead after 6 deliveries', () => {
    const policy = toRetryPolicy()
    expect([1, 2, 3, 4, 5, 6].map((attempt) => failureOutcome(policy, attempt))).toEqual([
      { kind: 'retry', delayMs: 1_000, nextAttempt: 2 },
      { kind: 'retry', delayMs: 5_000, nextAttempt: 3 },
      { kind: 'retry', delayMs: 25_000, nextAttempt: 4 },
      { kind: 'retry', delayMs: 120_000, nextAttempt: 5 },
      { kind: 'retry', delayMs: 600_000, nextAttempt: 6 },
      { kind: 'dead' },
    ])
    expect(policy.prefetch).toBe(10)
  })

  it.each([
    [{ maxAttempts: 1 }, 1, { kind: 'dead' }],
    [{ maxAttempts: 4, retryDelaysMs: [100] }, 3, { kind: 'retry', delayMs: 100, nextAttempt: 4 }],
    [{ maxAttempts: 10, retryDelaysMs: [100, 200] }, 7, { kind: 'retry', delayMs: 200, nextAttempt: 8 }],
    [{ maxAttempts: 3, retryDelaysMs: [] }, 1, { kind: 'retry', delayMs: 1_000, nextAttempt: 2 }],
  ])('with %j, a failure on attempt %i gives %j', (options, attempt, outcome) => {
    expect(failureOutcome(toRetryPolicy(options), attempt)).toEqual(outcome)
  })

  it('lists the distinct delays a consumer can use (one AMQP retry queue each)', () => {
    expect(usedRetryDelays(toRetryPolicy({ maxAttempts: 5, retryDelaysMs: [100, 200] }))).toEqual([100, 200])
    expect(usedRetryDelays(toRetryPolicy({ maxAttempts: 2, retryDelaysMs: [100, 200] }))).toEqual([100])
    expect(usedRetryDelays(toRetryPolicy({ maxAttempts: 1 }))).toEqual([])
  })

  it.each([{ prefetch: 0 }, { maxAttempts: 0 }, { maxAttempts: 1.5 }, { retryDelaysMs: [-1] }])(
    'rejects %j',
    (options) => {
      expect(() => toRetryPolicy(options)).toThrow(InvalidInputError)
    },
  )

  it.each(['', '../x', 'a/b', 'mail.outbound.dead', 'mail.outbound.retry.1000', '.hidden', 'x'.repeat(201)])(
    'rejects the queue name %j',
    (name) => {
      expect(() => assertQueueName(name)).toThrow(InvalidInputError)
    },
  )

  it.each(['mail.outbound', 'webhook-deliveries', 'bulk_jobs.v2'])('accepts the queue name %j', (name) => {
    expect(() => assertQueueName(name)).not.toThrow()
  })
})
