import { agentNamePart, agentSchemaName, BASE_WALLET_AGENT_ID } from './agent-runtime'

describe('agent resource names', () => {
  it("name an organization's agent by the first 12 hex digits of its id", () => {
    const orgId = '6c1f3b0e-2b7c-4f5e-9a1d-2f0e8c4b7a10'
    expect(agentNamePart(orgId)).toBe('6c1f3b0e2b7c')
    expect(agentSchemaName(orgId)).toBe('agent_6c1f3b0e2b7c')
  })

  it('name the base-wallet agent apart from every organization (not hexadecimal)', () => {
    // The Kubernetes runtime's OrgAgent and Secret: agent-<name part>, i.e. agent-base-wallet.
    expect(agentNamePart(BASE_WALLET_AGENT_ID)).toBe('base-wallet')
    expect(agentSchemaName(BASE_WALLET_AGENT_ID)).toBe('agent_base_wallet')
  })
})
