import type { AgentContext, AgentContextProvider } from '@credo-ts/core'

import { recipientKeyFingerprints } from './recipient-keys'
import type { TenantRouting } from './tenant-routing'
import { type TenantSessionCoordinator, contextIdForTenant, tenantIdOfContext } from './tenant-session-coordinator'

/**
 * Credo's AgentContextProvider for a base wallet with tenants (model: Credo's TenantAgentContextProvider). An
 * inbound envelope goes to the tenant owning one of its recipient keys; a message for no tenant's key goes to the
 * base wallet, which remains an agent of its own (the organization's agent when there are no tenants).
 */
export class TenantContextProvider implements AgentContextProvider {
  public constructor(
    private readonly rootContext: () => AgentContext,
    private readonly coordinator: TenantSessionCoordinator,
    private readonly routing: TenantRouting,
  ) {}

  public async getAgentContextForContextCorrelationId(contextCorrelationId: string): Promise<AgentContext> {
    const root = this.rootContext()
    if (contextCorrelationId === root.contextCorrelationId) return root
    const tenantId = tenantIdOfContext(contextCorrelationId)
    if (tenantId === undefined) throw new Error(`Unknown agent context ${contextCorrelationId}`)
    return this.coordinator.acquire(tenantId)
  }

  public async getContextForInboundMessage(
    inboundMessage: unknown,
    options?: { contextCorrelationId?: string },
  ): Promise<AgentContext> {
    if (options?.contextCorrelationId) return this.getAgentContextForContextCorrelationId(options.contextCorrelationId)
    const tenantId = await this.routing.tenantFor(recipientKeyFingerprints(inboundMessage))
    if (tenantId === undefined) return this.rootContext()
    return this.getAgentContextForContextCorrelationId(contextIdForTenant(tenantId))
  }

  public async endSessionForAgentContext(agentContext: AgentContext): Promise<void> {
    if (agentContext.isRootAgentContext) return
    await this.coordinator.release(agentContext)
  }

  public async deleteAgentContext(agentContext: AgentContext): Promise<void> {
    const tenantId = tenantIdOfContext(agentContext.contextCorrelationId)
    if (agentContext.isRootAgentContext || tenantId === undefined) {
      await agentContext.dependencyManager.deleteAgentContext(agentContext)
      return
    }
    await this.coordinator.delete(tenantId)
  }
}
