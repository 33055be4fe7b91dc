import type { ConfigSection } from '../../infra/config-section'

export interface EcosystemsConfig {
  /** ECOSYSTEM_ENABLED: the spec's feature flag; while false every ecosystem route answers 403. */
  isEnabled: boolean
}

/** @default false: the spec puts every ecosystem endpoint behind a flag that an operator turns on. */
export const DEFAULT_ECOSYSTEM_ENABLED = false

export const ecosystemsConfig: ConfigSection<EcosystemsConfig> = {
  name: 'ecosystems',
  read: (env) => ({ isEnabled: env.bool('ECOSYSTEM_ENABLED', DEFAULT_ECOSYSTEM_ENABLED) }),
}
