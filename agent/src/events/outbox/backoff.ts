/** @default 500 ms before the first retry */
export const BASE_RETRY_DELAY_MS = 500
/** @default 5 minutes between retries at most */
export const MAX_RETRY_DELAY_MS = 5 * 60 * 1000

/** Exponential backoff with full jitter: attempt 1 waits up to base, each further attempt doubles the cap. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const cap = Math.min(MAX_RETRY_DELAY_MS, BASE_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1))
  return Math.max(BASE_RETRY_DELAY_MS / 2, Math.floor(cap * random()))
}
