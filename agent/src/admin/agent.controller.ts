import type { AgentStatusFacts } from '@idplane/common/agent-contract/admin-api'
import { Get, JsonController, Res } from 'routing-controllers'

import type { AgentRuntime } from './agent-runtime'
import { ok } from './envelope'

/**
 * Only what the route needs of the response. An interface keeps decorator metadata a plain Object; with
 * `Response` swc emits the global fetch Response, which routing-controllers rejects when it comes from
 * another realm (jest's VM), so the admin app could not be built in tests.
 */
interface StatusSetter {
  status(code: number): unknown
}

/** The readiness probe the API and the operator poll: public facts only, 503 until initialized. */
@JsonController('/agent')
export class AgentController {
  public constructor(private readonly runtime: AgentRuntime) {}

  @Get()
  public status(@Res() res: StatusSetter) {
    const facts: AgentStatusFacts = {
      label: this.runtime.label,
      endpoints: this.runtime.endpoints,
      isInitialized: this.runtime.isInitialized,
    }
    if (!facts.isInitialized) {
      res.status(503)
      return { statusCode: 503, message: 'Agent is starting', error: 'Service Unavailable' }
    }
    return ok(facts, 'Agent is ready')
  }
}
