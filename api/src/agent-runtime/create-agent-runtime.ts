import type { Logger } from '@idplane/common'
import type { Config } from '../infra/config'
import type { AgentFeatures, AgentRuntime } from './agent-runtime'
import { KubernetesRuntime, loadKubeConfig } from './kubernetes-runtime'
import { ProcessRuntime } from './process-runtime'

/** The runtime AGENT_RUNTIME names (DESIGN.md, "Agent runtimes"). */
export function createAgentRuntime(
  config: Config,
  logger: Logger,
  features: AgentFeatures = { openId4Vc: false },
): AgentRuntime {
  const runtimeLogger = logger.child({ component: 'agent-runtime' })
  if (config.agents.runtime === 'kubernetes') {
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
