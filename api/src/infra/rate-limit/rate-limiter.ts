import { createHash } from 'node:crypto'
import { Logger, RateLimitedError } from '@idplane/common'
import type { RateLimitRule } from '../config'
import { RateLimitStore } from './rate-limit-store'

/** How often one process deletes counters of finished windows. @default 60 seconds */
export const DEFAULT_SWEEP_INTERVAL_SECONDS = 60

export interface RateLimiterOptions {
  /**
   * How long a window's counter is kept: at least the longest window of any rule in use, so a sweep never
   * resets a live counter.
   */
  retentionSeconds: number
  /** @default DEFAULT_SWEEP_INTERVAL_SECONDS */
  sweepIntervalSeconds?: number
}

/** One counter to charge: a key (see rateLimitKey) under a rule. */
export interface RateLimitCheck {
  key: string
  rule: RateLimitRule
  /** Hits this request counts (e.g. one per mail of a batch). @default 1 */
  cost?: number
}

export interface RateLimitOutcome {
  count: number
  isAllowed: boolean
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number
}

/**
 * A counter key that names what is limited without storing the subject itself: e-mail addresses and IP
 * addresses are personal data, and a digest keeps keys short and of fixed length.
 */
export function rateLimitKey(scope: string, subject: string): string {
  return `${scope}:${createHash('sha256').update(subject).digest('base64url')}`
}

/** Start of the fixed window that holds `now`; windows are aligned to the epoch, so every replica agrees. */
export function windowStartOf(now: Date, windowSeconds: number): Date {
  const windowMs = windowSeconds * 1000
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs)
}

/**
 * Fixed-window rate limits (issue: "Rate limits on sign-in and verification mail per address and per client,
 * answering 429 with Retry-After"). Every call counts a hit, allowed or not, so hammering a limited key keeps it
 * limited until the window ends.
 */
export class RateLimiter {
  private readonly logger: Logger
  private lastSweepAt = 0

  public constructor(
    private readonly store: RateLimitStore,
    logger: Logger,
    private readonly options: RateLimiterOptions,
  ) {
    this.logger = logger.child({ component: 'rate-limiter' })
  }

  /** Counts one hit against `key` and tells whether it is within `rule`. */
  public async hit(key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitOutcome> {
    const now = new Date()
    await this.sweepIfDue(now)
    const windowStart = windowStartOf(now, rule.windowSeconds)
    const count = await this.store.increment(key, windowStart, cost)
    const windowEndMs = windowStart.getTime() + rule.windowSeconds * 1000
    return {
      count,
      isAllowed: count <= rule.limit,
      retryAfterSeconds: Math.max(1, Math.ceil((windowEndMs - now.getTime()) / 1000)),
    }
  }

  /**
   * Counts one hit on every check (all of them, so no counter can be dodged by tripping another first).
   * @throws RateLimitedError when any is over its limit, with the longest wait among them
   */
  public async enforce(checks: RateLimitCheck[], message: string): Promise<void> {
    const outcomes = await Promise.all(checks.map((check) => this.hit(check.key, check.rule, check.cost)))
    const exceeded = outcomes.filter((outcome) => !outcome.isAllowed)
    if (exceeded.length === 0) return
    const retryAfterSeconds = Math.max(...exceeded.map((outcome) => outcome.retryAfterSeconds))
    this.logger.info('Limited request rate', { scopes: checks.map((check) => check.key.split(':')[0]) })
    throw new RateLimitedError(message, retryAfterSeconds)
  }

  private async sweepIfDue(now: Date): Promise<void> {
    const intervalMs = (this.options.sweepIntervalSeconds ?? DEFAULT_SWEEP_INTERVAL_SECONDS) * 1000
    if (now.getTime() - this.lastSweepAt < intervalMs) return
    this.lastSweepAt = now.getTime()
    const cutoff = new Date(now.getTime() - this.options.retentionSeconds * 1000)
    try {
      const deleted = await this.store.deleteWindowsBefore(cutoff)
      if (deleted > 0) this.logger.debug('Deleted finished rate-limit windows', { deleted })
    } catch (error) {
      // A failed sweep only leaves old rows behind; the next interval tries again.
      this.logger.warn('Failed to delete finished rate-limit windows', { error })
    }
  }
}
