import { injectable } from 'inversify'
import { UnauthenticatedError } from '@idplane/common'
import { AgentEventsService } from '../agents/agent-events.service'
import { WalletEventsService } from '../cloud-wallet/wallet-events.service'

/**
 * Who an agent's request to the ledger's side of the platform comes from (NYM requests, tails file uploads): an
 * organization's agent by its event token, or the cloud wallet's base agent by the base wallet's API key (as on its
 * event route), which has no organization.
 */
@injectable()
export class LedgerRequesters {
  public constructor(
    private readonly agentEvents: AgentEventsService,
    private readonly walletEvents: WalletEventsService,
  ) {}

  /**
   * The organization whose agent holds the Bearer token of `authorization`, or null for the base agent.
   * @throws UnauthenticatedError when the token is neither
   */
  public async requesterOf(authorization: string | undefined): Promise<string | null> {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1]
    try {
      return await this.agentEvents.authenticate(token)
    } catch (error) {
      if (!(error instanceof UnauthenticatedError) || !token) throw error
      await this.walletEvents.authenticate(token)
      return null
    }
  }
}
