import type { ConfigSection } from '../../infra/config-section'

export interface ShortUrlsConfig {
  /** SHORT_URL_TTL_SECONDS: how long a short invitation link works. */
  ttlSeconds: number
}

/** @default 30 days: mailed invitations are often opened days later. */
export const DEFAULT_SHORT_URL_TTL_SECONDS = 30 * 86_400

export const shortUrlsConfig: ConfigSection<ShortUrlsConfig> = {
  name: 'shortUrls',
  read: (env) => ({
    ttlSeconds: env.int('SHORT_URL_TTL_SECONDS', DEFAULT_SHORT_URL_TTL_SECONDS, { min: 60, max: 366 * 86_400 }),
  }),
}
