import type { EnvReader } from '@idplane/common'
import type { RateLimitRule } from '../../infra/config'
import type { ConfigSection } from '../../infra/config-section'
import { MAX_RETENTION_SECONDS } from '../../infra/retention/retention-pruner'

export interface WebhooksConfig {
  /** WEBHOOK_TIMEOUT_MS: longest wait for one POST (connect to last byte of the answer's head). */
  timeoutMs: number
  /** WEBHOOK_MAX_ATTEMPTS: attempts before a delivery is dead. */
  maxAttempts: number
  /** WEBHOOK_RETRY_DELAYS_MS: delay before retry n is element n - 1; the last one repeats. */
  retryDelaysMs: number[]
  /** WEBHOOK_CONCURRENCY: deliveries in flight per API process. */
  concurrency: number
  /**
   * WEBHOOK_OWNER_CONCURRENCY: deliveries of one owner (organization, or tenant) in flight at once across the
   * platform; below WEBHOOK_CONCURRENCY, so one slow receiver never holds every slot.
   */
  ownerConcurrency: number
  /** WEBHOOK_RELAY_INTERVAL_MS: how often the relay looks for due deliveries when nothing woke it. */
  relayIntervalMs: number
  /** RATE_LIMIT_WEBHOOK_PING_*: pings per organization. */
  pingLimit: RateLimitRule
  /** WEBHOOK_DELIVERY_RETENTION_SECONDS: delivered and dead deliveries are deleted this long after their last attempt. */
  deliveryRetentionSeconds: number
}

/** @default 10 s per POST. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000
/** Exponential (x5): 1 s, 5 s, 25 s, 2 min, 10 min; with 6 attempts a delivery is dead after about 13 minutes. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 25_000, 120_000, 600_000]
export const DEFAULT_WEBHOOK_MAX_ATTEMPTS = 6
export const DEFAULT_WEBHOOK_CONCURRENCY = 10
/** @default 3 deliveries of one owner at once: a receiver answering in 15 s holds 3 of the 10 slots at most. */
export const DEFAULT_WEBHOOK_OWNER_CONCURRENCY = 3
export const DEFAULT_WEBHOOK_RELAY_INTERVAL_MS = 1_000
/** @default 60 pings per organization per minute: enough to test a receiver, too few to flood the relay. */
export const DEFAULT_WEBHOOK_PING_LIMIT = 60
export const DEFAULT_WEBHOOK_PING_WINDOW_SECONDS = 60
/**
 * @default 14 days: the delivery log answers "did my receiver get it?" for two weeks, longer than a receiver's
 * usual outage and a client's usual replay window; a dead delivery can be requeued within it.
 */
export const DEFAULT_WEBHOOK_DELIVERY_RETENTION_SECONDS = 14 * 86_400

export const webhooksConfig: ConfigSection<WebhooksConfig> = {
  name: 'webhooks',
  read: (env) => {
    const concurrency = env.int('WEBHOOK_CONCURRENCY', DEFAULT_WEBHOOK_CONCURRENCY, { min: 1, max: 200 })
    const ownerConcurrency = env.int(
      'WEBHOOK_OWNER_CONCURRENCY',
      Math.min(DEFAULT_WEBHOOK_OWNER_CONCURRENCY, Math.max(1, concurrency - 1)),
      { min: 1, max: 200 },
    )
    if (concurrency > 1 && ownerConcurrency >= concurrency) {
      env.problem('WEBHOOK_OWNER_CONCURRENCY', 'must be less than WEBHOOK_CONCURRENCY')
    }
    return {
      timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', DEFAULT_WEBHOOK_TIMEOUT_MS, { min: 100, max: 120_000 }),
      maxAttempts: env.int('WEBHOOK_MAX_ATTEMPTS', DEFAULT_WEBHOOK_MAX_ATTEMPTS, { min: 1, max: 50 }),
      retryDelaysMs: readDelays(env, 'WEBHOOK_RETRY_DELAYS_MS'),
      concurrency,
      ownerConcurrency,
      relayIntervalMs: env.int('WEBHOOK_RELAY_INTERVAL_MS', DEFAULT_WEBHOOK_RELAY_INTERVAL_MS, {
        min: 10,
        max: 60_000,
      }),
      pingLimit: {
        limit: env.int('RATE_LIMIT_WEBHOOK_PING_MAX', DEFAULT_WEBHOOK_PING_LIMIT, { min: 1 }),
        windowSeconds: env.int('RATE_LIMIT_WEBHOOK_PING_WINDOW_SECONDS', DEFAULT_WEBHOOK_PING_WINDOW_SECONDS, {
          min: 1,
          max: 86_400,
        }),
      },
      deliveryRetentionSeconds: env.int(
        'WEBHOOK_DELIVERY_RETENTION_SECONDS',
        DEFAULT_WEBHOOK_DELIVERY_RETENTION_SECONDS,
        { min: 60, max: MAX_RETENTION_SECONDS },
      ),
    }
  },
}

/** A comma-separated list of whole milliseconds (0 to 1 day each), for example `200,400,800`. */
export function readDelays(env: EnvReader, name: string): number[] {
  const text = env.string(name)
  if (text === undefined) return [...DEFAULT_WEBHOOK_RETRY_DELAYS_MS]
  const parts = text.split(',').map((part) => part.trim())
  const delays = parts.map((part) => (/^\d{1,8}$/.test(part) ? Number(part) : NaN))
  if (parts.length === 0 || parts.length > 50 || delays.some((delay) => !(delay >= 0 && delay <= 86_400_000))) {
    env.problem(name, 'must be 1 to 50 comma-separated whole numbers of milliseconds, each at most 86400000')
    return [...DEFAULT_WEBHOOK_RETRY_DELAYS_MS]
  }
  return delays
}

/** The delay after failed attempt `attempt` (1-based): the schedule's element `attempt - 1`, the last one repeating. */
export function retryDelayAfter(config: Pick<WebhooksConfig, 'retryDelaysMs'>, attempt: number): number {
  const delays = config.retryDelaysMs
  return delays[Math.min(Math.max(attempt, 1), delays.length) - 1] ?? 0
}
