import { injectable } from 'inversify'
import type { AgentEventHandler, AppliedAgentEvent } from '../../infra/api-module'
import { ProofsService } from './proofs.service'

/**
 * Applies the agent's `proof` events to the organization's proof records. Events of a base wallet's tenants
 * (`tenantId`) belong to cloud wallets, not to the organization's records, and are left to that module.
 */
@injectable()
export class ProofEventsHandler implements AgentEventHandler {
  public constructor(private readonly proofs: ProofsService) {}

  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    if (event.tenantId !== undefined) return
    await this.proofs.applyAgentEvent(orgId, event.record, event.occurredAt)
  }
}
