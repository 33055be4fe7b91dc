import type { Response } from 'express'
import { Get, JsonController, Res } from 'routing-controllers'

import type { AgentRuntime } from './agent-runtime'
import { ok } from './envelope'

/** The readiness probe the API and the operator poll: public facts only, 503 until initialized. */
@JsonController('/agent')
export class AgentController {
  public constructor(private readonly runtime: AgentRuntime) {}

  @Get()
  public status(@Res() res: Response) {
    const facts = {
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
