import type { IdplaneAgent } from '../credo/build-agent'
import { TenantsService } from '../tenancy/tenants.service'

/** What the admin controllers share: the agent (set once initialized) and the public facts about it. */
export class AgentRuntime {
  private current: IdplaneAgent | undefined

  public constructor(
    public readonly label: string,
    public readonly endpoints: string[],
  ) {}

  public setInitialized(agent: IdplaneAgent): void {
    this.current = agent
  }

  public get isInitialized(): boolean {
    return this.current?.isInitialized ?? false
  }

  /** @throws {Error} before initialization; routes other than GET /agent are not served then */
  public get agent(): IdplaneAgent {
    if (!this.current) throw new Error('Agent is not initialized')
    return this.current
  }

  /** @throws {Error} before initialization */
  public get tenants(): TenantsService {
    return this.agent.dependencyManager.resolve(TenantsService)
  }
}
