/** Where an organization's agent answers: its admin endpoint and API key once it has answered. */
export type AgentAddress =
  /** The agent has not answered yet (provisioning) or failed: no endpoint is recorded. */
  { status: string; endpoint: null } | { status: string; endpoint: string; apiKey: string }

/**
 * Finds an organization's agent for AgentClients. The agents module owns the agent records and their sealed keys and
 * binds the implementation; agent-client only asks (as infra's OrgRoleLookup is answered by memberships), so
 * agent-client imports nothing of the modules.
 */
export abstract class AgentEndpointLookup {
  /** The organization's agent, or undefined when it has none. */
  public abstract addressOf(orgId: string): Promise<AgentAddress | undefined>
}
