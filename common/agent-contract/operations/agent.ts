import { AGENT_STATUS_PATH, type AgentStatusFacts } from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

/** The readiness probe: the only operation without the API key. */
export const AGENT_OPERATIONS = operationsByName({
  getStatus: defineOperation({
    name: 'getStatus',
    method: 'GET',
    path: AGENT_STATUS_PATH,
    access: 'public',
    message: 'Agent is ready',
    result: shape<AgentStatusFacts>(),
    summary: 'Label and endpoints; 503 until the agent is initialized',
  }),
})
