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
  /** CLOUD_WALLET_CONCURRENCY: holders' wallet requests in progress at once in one API process (wallet-admission.ts). */
  concurrency: number
  /** CLOUD_WALLET_QUEUE_MAX: wallet requests waiting for a turn; one more is answered 429 with Retry-After. */
  queueMax: number
}

/** @default 30 s: an embedded agent starts in seconds; a busy machine or a pulled image may take longer (then 503). */
export const DEFAULT_BASE_AGENT_WAIT_MS = 30_000

/**
 * @default 16: in the 100-holder benchmark on 2 cores, 16 kept the agents' events from queueing behind the polls
 * (the organizations' records stored 0.4-0.5 s after the wallets' instead of 1.4-4.2 s, p50) with the holders' own
 * flows no slower; fewer turns slowed the holders (docs/benchmarks.md, "Holders take turns").
 */
export const DEFAULT_WALLET_CONCURRENCY = 16
/** @default 2000: a queue of wallet requests that is worked through in seconds at a few hundred per second. */
export const DEFAULT_WALLET_QUEUE_MAX = 2000

export const cloudWalletConfig: ConfigSection<CloudWalletConfig> = {
  name: 'cloud-wallet',
  read: (env) => ({
    baseAgent: env.oneOf('CLOUD_WALLET_BASE_AGENT', BASE_AGENT_MODES, 'managed'),
    baseAgentWaitMs: env.int('CLOUD_WALLET_BASE_AGENT_WAIT_MS', DEFAULT_BASE_AGENT_WAIT_MS, { min: 0, max: 300_000 }),
    concurrency: env.int('CLOUD_WALLET_CONCURRENCY', DEFAULT_WALLET_CONCURRENCY, { min: 1, max: 10_000 }),
    queueMax: env.int('CLOUD_WALLET_QUEUE_MAX', DEFAULT_WALLET_QUEUE_MAX, { min: 0, max: 1_000_000 }),
  }),
}
