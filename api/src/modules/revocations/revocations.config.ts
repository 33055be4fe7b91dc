import type { ConfigSection } from '../../infra/config-section'

export interface RevocationsConfig {
  /** REVOCATION_REGISTRY_SIZE: maxCredNum of each revocation registry the API creates (it issues indices 1 to size-1). */
  registrySize: number
  /** REVOCATION_REGISTRY_TIMEOUT_MS: longest wait for an agent to create one registry (its tails file and first list). */
  registryTimeoutMs: number
  /**
   * TEST-ONLY (REVOCATION_PUBLISH_TEST_DELAY_MS): a pause between the agent's ledger write of a revocation (or a status
   * list's publication) and the API's commit of it, so a crash test can kill the API inside that window every time.
   * 0 (unset) in every deployment.
   */
  publishTestDelayMs: number
}

/** @default 1,000 (issue 25): a tails file of about 128 KiB, made in well under a second (bench:revocation). */
export const DEFAULT_REVOCATION_REGISTRY_SIZE = 1_000
/** @default 120 s: a 100,000-entry tails file takes tens of seconds on a loaded machine. */
export const DEFAULT_REVOCATION_REGISTRY_TIMEOUT_MS = 120_000

export const revocationsConfig: ConfigSection<RevocationsConfig> = {
  name: 'revocations',
  read: (env) => ({
    registrySize: env.int('REVOCATION_REGISTRY_SIZE', DEFAULT_REVOCATION_REGISTRY_SIZE, { min: 2, max: 100_000 }),
    registryTimeoutMs: env.int('REVOCATION_REGISTRY_TIMEOUT_MS', DEFAULT_REVOCATION_REGISTRY_TIMEOUT_MS, {
      min: 1_000,
      max: 3_600_000,
    }),
    publishTestDelayMs: env.int('REVOCATION_PUBLISH_TEST_DELAY_MS', 0, { min: 0, max: 600_000 }),
  }),
}
