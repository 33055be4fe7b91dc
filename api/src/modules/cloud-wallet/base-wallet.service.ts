import { inject, injectable } from 'inversify'
import { ConflictError, ForbiddenError, InvalidInputError, InvalidStateError, UpstreamError } from '@idplane/common'
import { probeAgent } from '@idplane/common/agent-contract/probe'
import type { AgentClient } from '../../agent-client/agent-client'
import { AgentClients } from '../../agent-client/agent-clients'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { SecretBox } from '../../infra/crypto/secret-box'
import { TOKENS } from '../../infra/tokens'
import { PlatformAdmins } from '../memberships/platform-admins'
import { sectionOf } from '../../infra/config-section'
import { BASE_WALLET_SCOPE, type BaseWallet } from './base-wallet.entity'
import { cloudWalletConfig } from './cloud-wallet.config'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { ManagedBaseAgent } from './managed-base-agent'
import type { ConfigureBaseWalletDto } from './dto/wallet.dto'
import type { BaseWalletResponse } from './dto/wallet.response'

/** Names the base agent in agent-client logs and metrics (it belongs to no organization). */
const BASE_AGENT_NAME = 'cloud-wallet-base'

export const NO_BASE_WALLET =
  'No base wallet is configured: a platform admin must call POST /v1/configure/base-wallet before wallets can be used'

/**
 * The multi-tenant agent behind every cloud wallet, its keys sealed at rest, and the client every wallet call goes
 * through: configured by a platform admin (spec: Cloud wallet, `POST /configure/base-wallet`), else, with
 * CLOUD_WALLET_BASE_AGENT=managed, the platform's own agent (ManagedBaseAgent). A configured one takes precedence
 * over a managed one that holds no wallets; one that holds wallets keeps them (configure is 409).
 */
@injectable()
export class BaseWalletService {
  public constructor(
    private readonly wallets: CloudWalletsRepository,
    private readonly box: SecretBox,
    private readonly admins: PlatformAdmins,
    private readonly agentClients: AgentClients,
    private readonly managed: ManagedBaseAgent,
    @inject(TOKENS.Config) private readonly config: Config,
  ) {}

  /**
   * Checks that the agent answers GET /agent with the key, then stores (or replaces) the one base wallet.
   * Idempotent: the same body again answers the same result.
   * @throws ForbiddenError unless the caller is a platform admin
   * @throws InvalidInputError when the endpoint is not a URL or the agent refuses the key
   * @throws UpstreamError when the agent cannot be reached or is not ready
   * @throws ConflictError when wallets exist and the endpoint would change (they live on the configured agent, or
   *   on the platform's managed agent)
   */
  public async configure(principal: Principal, body: ConfigureBaseWalletDto): Promise<BaseWalletResponse> {
    if (!(await this.admins.isPlatformAdmin(principal))) {
      throw new ForbiddenError('Only a platform admin can configure the base wallet')
    }
    const agentEndpoint = normalizeEndpoint(body.agentEndpoint)
    // Refused before the agent is contacted: the answer does not depend on it.
    const existing = await this.wallets.findBaseWallet()
    const isReplacingManaged = existing?.managed === true
    if (
      existing &&
      (isReplacingManaged || existing.agentEndpoint !== agentEndpoint) &&
      (await this.wallets.countWallets()) > 0
    ) {
      throw new ConflictError(
        isReplacingManaged
          ? "Cloud wallets exist on the platform's managed base agent: another base wallet cannot be configured"
          : 'Cloud wallets exist on the configured base agent: its endpoint cannot change',
      )
    }
    const probe = await probeAgent(agentEndpoint, this.config.agents.requestTimeoutMs, body.apiKey)
    if (!probe.ok) {
      if (probe.detail === 'HTTP 401' || probe.detail === 'HTTP 403') {
        throw new InvalidInputError('The agent did not accept this API key', [
          { field: 'apiKey', message: `the agent answered ${probe.detail}` },
        ])
      }
      throw new UpstreamError(`The agent at ${agentEndpoint} did not answer GET /agent (${probe.detail})`)
    }
    const status = await this.agentClients
      .forTarget({ orgId: BASE_AGENT_NAME, endpoint: agentEndpoint, apiKey: body.apiKey })
      .getStatus()
    await this.wallets.saveBaseWallet({
      agentEndpoint,
      encryptedApiKey: this.box.seal(body.apiKey, BASE_WALLET_SCOPE),
      encryptedWalletKey: this.box.seal(body.walletKey, BASE_WALLET_SCOPE),
      configuredBy: principal.kind === 'user' ? principal.userId : null,
    })
    if (isReplacingManaged) await this.managed.retire()
    return { agentEndpoint, label: status.label, endpoints: status.endpoints, isInitialized: status.isInitialized }
  }

  /**
   * The base agent's client: the configured agent's, else the managed agent's once it answers (started now if
   * this process has not started it; the request waits a bounded time).
   * @throws InvalidStateError (409) while no base wallet is configured and CLOUD_WALLET_BASE_AGENT=external
   * @throws UnavailableError (503 with Retry-After) while the managed agent starts, or when its start failed
   */
  public async client(): Promise<AgentClient> {
    return this.clientFrom(await this.wallets.findBaseWallet())
  }

  /**
   * `client()` from a base wallet row read up to WALLET_ROW_REUSE_MS ago: for the calls of an existing wallet, whose
   * base agent cannot change under it (configure refuses while wallets exist).
   */
  public async walletClient(): Promise<AgentClient> {
    return this.clientFrom(await this.wallets.recentBaseWallet())
  }

  private async clientFrom(base: BaseWallet | null): Promise<AgentClient> {
    if (base && !base.managed && base.agentEndpoint) return this.clientOf(base.agentEndpoint, base.encryptedApiKey)
    // A managed agent that exists is always run (its wallets live there); the setting decides about a new one.
    if (!base && sectionOf(this.config, cloudWalletConfig).baseAgent !== 'managed') {
      throw new InvalidStateError(NO_BASE_WALLET)
    }
    // The managed agent answers already: nothing was awaited since the row was read, so it is the current one.
    const settled = base?.managed ? this.managed.settled() : undefined
    if (base && settled?.kind === 'ready') return this.clientOf(settled.agentEndpoint, base.encryptedApiKey)
    const state = await this.managed.ready()
    const current = await this.wallets.findBaseWallet()
    if (!current?.agentEndpoint) throw new InvalidStateError(NO_BASE_WALLET)
    // `external`: an admin configured a base wallet while the managed one was starting.
    const endpoint = state.kind === 'ready' && current.managed ? state.agentEndpoint : current.agentEndpoint
    return this.clientOf(endpoint, current.encryptedApiKey)
  }

  private clientOf(endpoint: string, encryptedApiKey: string): AgentClient {
    return this.agentClients.forTarget({ orgId: BASE_AGENT_NAME, endpoint, apiKey: this.apiKeyOf(encryptedApiKey) })
  }

  /** The base agent's API key (every wallet call needs it; opened once per sealed value, SecretBox.openKept). */
  private apiKeyOf(encryptedApiKey: string): string {
    return this.box.openKept(encryptedApiKey, BASE_WALLET_SCOPE)
  }
}

/**
 * `protocol://host:port` as given (without a trailing slash); a bare domain means https.
 * @throws InvalidInputError when it is neither
 */
export function normalizeEndpoint(value: string): string {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? value.trim() : `https://${value.trim()}`
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    throw invalidEndpoint()
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw invalidEndpoint()
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}

function invalidEndpoint(): InvalidInputError {
  return new InvalidInputError('Invalid agent endpoint', [
    { field: 'agentEndpoint', message: 'agentEndpoint must be protocol://host:port (http or https) or a domain' },
  ])
}
