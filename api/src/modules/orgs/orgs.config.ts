import type { ConfigSection } from '../../infra/config-section'

/** The organizations quota (docs/decisions.md, "Quotas"). */
export interface OrgsConfig {
  /** LIMIT_ORGS_PER_USER: organizations one user may create (those that still exist); 0 turns the limit off. */
  readonly orgsPerUser: number
}

/** @default 10 organizations created per user (LIMIT_ORGS_PER_USER; 0: no limit). */
export const DEFAULT_LIMIT_ORGS_PER_USER = 10

export const orgsConfig: ConfigSection<OrgsConfig> = {
  name: 'orgs',
  read: (env) => ({
    orgsPerUser: env.int('LIMIT_ORGS_PER_USER', DEFAULT_LIMIT_ORGS_PER_USER, { min: 0, max: 1_000_000 }),
  }),
}
