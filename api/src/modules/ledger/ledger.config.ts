import type { ConfigSection } from '../../infra/config-section'
import type { RateLimitRule } from '../../infra/config'

export interface LedgerConfig {
  /** LEDGER_NAMESPACE: the `<ns>` of did:indy ids this ledger answers for. */
  namespace: string
  /** LEDGER_TRUSTEE_SEED: 32 characters; unset, the seed is derived from the secrets encryption key. */
  trusteeSeed?: string
  /** LEDGER_WRITE_RATE_LIMIT_MAX / _WINDOW_SECONDS: public writes per client address per window. */
  writeLimit: RateLimitRule
}

export const DEFAULT_LEDGER_NAMESPACE = 'idplane'
/** did:indy's namespace grammar: a name, optionally with one sub-namespace. */
export const LEDGER_NAMESPACE_PATTERN = /^[a-z0-9]+(:[a-z0-9]+)?$/

export const ledgerConfig: ConfigSection<LedgerConfig> = {
  name: 'ledger',
  read: (env) => {
    const namespace = env.string('LEDGER_NAMESPACE', DEFAULT_LEDGER_NAMESPACE)
    if (!LEDGER_NAMESPACE_PATTERN.test(namespace)) {
      env.problem('LEDGER_NAMESPACE', 'must match [a-z0-9]+(:[a-z0-9]+)? (for example idplane or idplane:test)')
    }
    const trusteeSeed = env.string('LEDGER_TRUSTEE_SEED')
    // Indy's convention: the seed is the UTF-8 bytes of a 32-character string.
    if (trusteeSeed !== undefined && Buffer.byteLength(trusteeSeed, 'utf8') !== 32) {
      env.problem('LEDGER_TRUSTEE_SEED', 'must be exactly 32 characters (32 bytes of UTF-8)')
    }
    return {
      namespace,
      trusteeSeed,
      writeLimit: {
        limit: env.int('LEDGER_WRITE_RATE_LIMIT_MAX', 600, { min: 1 }),
        windowSeconds: env.int('LEDGER_WRITE_RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1, max: 3600 }),
      },
    }
  },
}
