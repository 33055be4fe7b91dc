import type { ConfigSection } from '../../infra/config-section'

export interface CredDefsConfig {
  /** CRED_DEF_JOB_TIMEOUT_MS: longest wait for the agent to generate and register one definition's keys. */
  jobTimeoutMs: number
  /** CRED_DEF_CONCURRENCY: key-generation jobs one API process runs at once. */
  concurrency: number
}

/** @default 120 s: key generation takes 1-2 s on a loaded machine (bench:anoncreds), much longer when it is saturated. */
export const DEFAULT_CRED_DEF_JOB_TIMEOUT_MS = 120_000
/** @default 2: each job keeps an agent busy finding two safe primes; more only queues work inside the agents. */
export const DEFAULT_CRED_DEF_CONCURRENCY = 2

export const credDefsConfig: ConfigSection<CredDefsConfig> = {
  name: 'cred-defs',
  read: (env) => ({
    jobTimeoutMs: env.int('CRED_DEF_JOB_TIMEOUT_MS', DEFAULT_CRED_DEF_JOB_TIMEOUT_MS, { min: 1_000, max: 3_600_000 }),
    concurrency: env.int('CRED_DEF_CONCURRENCY', DEFAULT_CRED_DEF_CONCURRENCY, { min: 1, max: 50 }),
  }),
}
