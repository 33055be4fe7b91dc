import type { ConfigSection } from '../../infra/config-section'

export const BASE_AGENT_MODES = ['managed', 'external'] as const
export type BaseAgentMode = (typeof BASE_AGENT_MODES)[number]

export interface CloudWalletConfig {
  /**
   * CLOUD_WALLET_BASE_AGENT: `managed` (default) runs the platform's own base-wallet agent through the agent
   * runtime when no base wallet is configured; `external` waits for a platform admin to configure one.
   */
  baseAgent: BaseAgentMode
  /** CLOUD_WALLET_BASE_AGENT_WAIT_MS: how long a wallet request waits for the managed agent before a 503. */
  baseAgentWaitMs: number
}

/** @default 30 s: an embedded agent starts in seconds; a busy machine or a pulled image may take longer (then 503). */
export const DEFAULT_BASE_AGENT_WAIT_MS = 30_000

export const cloudWalletConfig: ConfigSection<CloudWalletConfig> = {
  name: 'cloud-wallet',
  read: (env) => ({
    baseAgent: env.oneOf('CLOUD_WALLET_BASE_AGENT', BASE_AGENT_MODES, 'managed'),
    baseAgentWaitMs: env.int('CLOUD_WALLET_BASE_AGENT_WAIT_MS', DEFAULT_BASE_AGENT_WAIT_MS, { min: 0, max: 300_000 }),
  }),
}
