import { InvalidInputError } from '@idplane/common'
import {
  ConsumeOptions,
  DEAD_LETTERED_AT_HEADER,
  DEAD_LETTER_SUFFIX,
  DEATH_REASON_HEADER,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PREFETCH,
  DEFAULT_RETRY_DELAYS_MS,
} from './queue'

/** ConsumeOptions with every default applied and checked. */
export interface RetryPolicy {
  prefetch: number
  maxAttempts: number
  retryDelaysMs: readonly number[]
}

/** What happens to a message whose handler failed on `attempt`. */
export type FailureOutcome = { kind: 'retry'; delayMs: number; nextAttempt: number } | { kind: 'dead' }

const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/

/**
 * Queue names become AMQP queue names and directory names, so they are restricted to letters, digits,
 * dots, dashes and underscores; `<name>.dead` and `<name>.retry.*` are reserved for the queue layer.
 * @throws InvalidInputError
 */
export function assertQueueName(queue: string): void {
  if (!QUEUE_NAME.test(queue) || queue.endsWith(DEAD_LETTER_SUFFIX) || /\.retry\.\d+$/.test(queue)) {
    throw new InvalidInputError(`Invalid queue name: ${JSON.stringify(queue.slice(0, 60))}`, [
      { field: 'queue', message: 'must match [A-Za-z0-9][A-Za-z0-9._-]* and not end with .dead or .retry.<n>' },
    ])
  }
}

/** @throws InvalidInputError for a non-positive prefetch or attempt count, or a negative delay */
export function toRetryPolicy(options: ConsumeOptions = {}): RetryPolicy {
  const policy: RetryPolicy = {
    prefetch: options.prefetch ?? DEFAULT_PREFETCH,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    retryDelaysMs:
      options.retryDelaysMs && options.retryDelaysMs.length > 0 ? [...options.retryDelaysMs] : DEFAULT_RETRY_DELAYS_MS,
  }
  const fields = [
    ...(Number.isInteger(policy.prefetch) && policy.prefetch >= 1
      ? []
      : [{ field: 'prefetch', message: 'must be a whole number >= 1' }]),
    ...(Number.isInteger(policy.maxAttempts) && policy.maxAttempts >= 1
      ? []
      : [{ field: 'maxAttempts', message: 'must be a whole number >= 1' }]),
    ...(policy.retryDelaysMs.every((delay) => Number.isInteger(delay) && delay >= 0)
      ? []
      : [{ field: 'retryDelaysMs', message: 'must be whole numbers of milliseconds >= 0' }]),
  ]
  if (fields.length > 0) throw new InvalidInputError('Invalid consume options', fields)
  return policy
}

/** Retry n waits `retryDelaysMs[n - 1]` (the last delay repeats); after `maxAttempts` deliveries: dead. */
export function failureOutcome(policy: RetryPolicy, attempt: number): FailureOutcome {
  if (attempt >= policy.maxAttempts) return { kind: 'dead' }
  const delays = policy.retryDelaysMs
  const delayMs = delays[Math.min(attempt, delays.length) - 1] ?? 0
  return { kind: 'retry', delayMs, nextAttempt: attempt + 1 }
}

/** The delays a consumer with this policy can ever use (one retry queue each on AMQP). */
export function usedRetryDelays(policy: RetryPolicy): number[] {
  const delays = new Set<number>()
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) {
    const outcome = failureOutcome(policy, attempt)
    if (outcome.kind === 'retry') delays.add(outcome.delayMs)
  }
  return [...delays]
}

export function deadLetterQueueName(queue: string): string {
  return `${queue}${DEAD_LETTER_SUFFIX}`
}

/** A short, single-line description of a handler failure for logs and dead-letter headers. */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}

/** Headers a message carries into `<queue>.dead`: why it died and when, for whoever replays it. */
export function deadLetterHeaders<T extends Record<string, unknown>>(
  headers: T | undefined,
  reason: string,
  now = new Date(),
): T & { [DEATH_REASON_HEADER]: string; [DEAD_LETTERED_AT_HEADER]: string } {
  return { ...(headers ?? ({} as T)), [DEATH_REASON_HEADER]: reason, [DEAD_LETTERED_AT_HEADER]: now.toISOString() }
}
