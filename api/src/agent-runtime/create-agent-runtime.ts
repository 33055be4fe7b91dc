import type { Logger } from '@idplane/common'
import type { Config } from '../infra/config'
import type { AgentFeatures, AgentRuntime } from './agent-runtime'
import { ProcessRuntime } from './process-runtime'

/** The runtime AGENT_RUNTIME names (DESIGN.md, "Agent runtimes"). */
export function createAgentRuntime(
  config: Config,
  logger: Logger,
  features: AgentFeatures = { openId4Vc: false },
): AgentRuntime {
  const runtimeLogger = logger.child({ component: 'agent-runtime' })
  if (config.agents.runtime === 'kubernetes') {
    const { KubernetesRuntime, loadKubeConfig } = loadKubernetesRuntime()
    return new KubernetesRuntime({
      agents: config.agents,
      database: config.database,
      network: config.network,
      features,
      kubeConfig: loadKubeConfig(config.agents.kubeconfigPath),
      logger: runtimeLogger,
    })
  }
  return new ProcessRuntime({
    agents: config.agents,
    database: config.database,
    network: config.network,
    features,
    logger: runtimeLogger,
  })
}

/**
 * Loaded only for AGENT_RUNTIME=kubernetes: `@kubernetes/client-node` is about a thousand modules (18 MB) that an API
 * running agents as processes never uses, and loading them was a third of such an API's start (docs/benchmarks.md,
 * "Program start").
 */
function loadKubernetesRuntime(): typeof import('./kubernetes-runtime') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded here only, on purpose (above)
  return require('./kubernetes-runtime') as typeof import('./kubernetes-runtime')
}
