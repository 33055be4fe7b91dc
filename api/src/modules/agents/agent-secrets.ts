import { injectable } from 'inversify'
import { InvalidStateError } from '@idplane/common'
import type { AgentSecrets } from '../../agent-runtime/agent-runtime'
import { SecretBox } from '../../infra/crypto/secret-box'
import { hashToken, randomSecret } from '../../infra/crypto/token-hash'
import { AgentsRepository } from './agents.repository'
import type { OrgAgent } from './org-agent.entity'

/** The secrets of a new agent as they are stored: sealed keys (bound to the organization) and a token hash. */
export interface SealedAgentSecrets {
  encryptedApiKey: string
  encryptedWalletKey: string
  encryptedSeed: string | null
  eventTokenHash: string
}

/**
 * Generates, seals and opens agents' secrets. The API key and wallet key are made here (never by the
 * client) and stored only sealed; the event token is stored only as a hash, so each (re)start of an
 * agent gets a fresh one.
 */
@injectable()
export class AgentSecretsService {
  public constructor(
    private readonly box: SecretBox,
    private readonly agents: AgentsRepository,
  ) {}

  public generate(orgId: string, seed: string | undefined): SealedAgentSecrets {
    return {
      encryptedApiKey: this.box.seal(randomSecret(), orgId),
      encryptedWalletKey: this.box.seal(randomSecret(), orgId),
      encryptedSeed: seed === undefined ? null : this.box.seal(seed, orgId),
      // Replaced by a real one when the runtime starts the agent (issue).
      eventTokenHash: hashToken(randomSecret()),
    }
  }

  public apiKeyOf(agent: OrgAgent): string {
    return this.openApiKey(agent.encryptedApiKey, agent.organization.id)
  }

  /** An agent's API key from its sealed form (bound to the organization); every call to the agent needs it. */
  public openApiKey(encryptedApiKey: string, orgId: string): string {
    return this.box.openKept(encryptedApiKey, orgId)
  }

  public seedOf(agent: OrgAgent): string | undefined {
    return agent.encryptedSeed ? this.box.open(agent.encryptedSeed, agent.organization.id) : undefined
  }

  /**
   * The secrets for starting the agent now, with a new event token whose hash replaces the stored one.
   * @throws InvalidStateError when the agent record is gone
   */
  public async issue(orgId: string): Promise<AgentSecrets> {
    const agent = await this.agents.findFreshForOrg(orgId)
    if (!agent) throw new InvalidStateError('The agent record is gone')
    const eventToken = randomSecret()
    await this.agents.setEventTokenHash(orgId, hashToken(eventToken))
    return {
      apiKey: this.apiKeyOf(agent),
      walletKey: this.box.open(agent.encryptedWalletKey, agent.organization.id),
      eventToken,
    }
  }
}
