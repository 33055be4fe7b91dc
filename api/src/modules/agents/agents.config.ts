import type { ConfigSection } from '../../infra/config-section'

/**
 * The agents module's quota (docs/decisions.md, "Quotas"). Where and how agents run (AGENT_*) is the platform's
 * (`Config.agents`): the agent runtimes and the agent client read it too.
 */
export interface AgentsModuleConfig {
  /** LIMIT_PROCESS_AGENTS: agents that are not FAILED on the process runtime; 0 turns the limit off. */
  readonly processAgents: number
}

/** @default 20 agents on the process runtime (LIMIT_PROCESS_AGENTS; 0: no limit): each takes hundreds of MB. */
export const DEFAULT_LIMIT_PROCESS_AGENTS = 20

export const agentsConfig: ConfigSection<AgentsModuleConfig> = {
  name: 'agents',
  read: (env) => ({
    processAgents: env.int('LIMIT_PROCESS_AGENTS', DEFAULT_LIMIT_PROCESS_AGENTS, { min: 0, max: 100_000 }),
  }),
}
