import { UnavailableError } from '@idplane/common'
import type { AGENT_OPERATIONS } from '@idplane/common/agent-contract/operations/agent'

import type { AdminController } from './admin-routes'
import type { AgentRuntime } from './agent-runtime'

/** The readiness probe the API and the operator poll: public facts only, 503 until initialized. */
export function agentController(runtime: AgentRuntime): AdminController<typeof AGENT_OPERATIONS> {
  return {
    getStatus: {
      handle: async () => {
        // The same body as the pipeline's answer to other routes while starting (the handler sets no header).
        if (!runtime.isInitialized) throw new UnavailableError('Agent is starting', 1)
        return { label: runtime.label, endpoints: runtime.endpoints, isInitialized: true }
      },
    },
  }
}
