import type { ConfigSection } from '../../infra/config-section'
import { MAX_RETENTION_SECONDS } from '../../infra/retention/retention-pruner'

export interface ShortUrlsConfig {
  /** SHORT_URL_TTL_SECONDS: how long a short invitation link works. */
  ttlSeconds: number
  /** SHORT_URL_RETENTION_SECONDS: an expired link's row is deleted this long after it expired. */
  retentionAfterExpirySeconds: number
}

/** @default 30 days: mailed invitations are often opened days later. */
export const DEFAULT_SHORT_URL_TTL_SECONDS = 30 * 86_400

/**
 * @default 1 day after expiry: long enough for a support question about a link that just stopped working (its
 * 404 says "expired" rather than "does not exist" until then), short enough that dead links do not pile up.
 */
export const DEFAULT_SHORT_URL_RETENTION_SECONDS = 86_400

export const shortUrlsConfig: ConfigSection<ShortUrlsConfig> = {
  name: 'shortUrls',
  read: (env) => ({
    ttlSeconds: env.int('SHORT_URL_TTL_SECONDS', DEFAULT_SHORT_URL_TTL_SECONDS, { min: 60, max: 366 * 86_400 }),
    retentionAfterExpirySeconds: env.int('SHORT_URL_RETENTION_SECONDS', DEFAULT_SHORT_URL_RETENTION_SECONDS, {
      min: 0,
      max: MAX_RETENTION_SECONDS,
    }),
  }),
}
