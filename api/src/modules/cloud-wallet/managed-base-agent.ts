import { inject, injectable } from 'inversify'
import { IdplaneError, Logger, UnavailableError, UpstreamError } from '@idplane/common'
import { AgentRuntime, BASE_WALLET_AGENT_ID } from '../../agent-runtime/agent-runtime'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { SecretBox } from '../../infra/crypto/secret-box'
import { randomSecret } from '../../infra/crypto/token-hash'
import { TOKENS } from '../../infra/tokens'
import { AgentPortsRepository } from '../agents/agent-ports.repository'
import { BASE_WALLET_SCOPE } from './base-wallet.entity'
import { cloudWalletConfig } from './cloud-wallet.config'
import { CLOUD_WALLET_METRICS, type CloudWalletMetrics } from './cloud-wallet-metrics'
import { CloudWalletsRepository } from './cloud-wallets.repository'

/** The label the managed agent runs with (its GET /agent answer; tenants carry their users' labels). */
export const BASE_AGENT_LABEL = 'Cloud wallet base'
/** @default 5 s: Retry-After of a wallet request answered 503 while the managed agent starts. */
export const BASE_AGENT_RETRY_AFTER_SECONDS = 5

/** What a start ended with: the managed agent answers at `agentEndpoint`, or an admin configured another one. */
export type ManagedBaseAgentState = { kind: 'ready'; agentEndpoint: string } | { kind: 'external' }

interface StartAttempt {
  done: Promise<ManagedBaseAgentState>
  abort: AbortController
  /** What `done` resolved to, once it has. */
  settled?: ManagedBaseAgentState
}

/**
 * The platform's own base-wallet agent (CLOUD_WALLET_BASE_AGENT=managed): one multi-tenant agent run through the
 * same agent runtime as organizations' agents (a child process in embedded mode, the OrgAgent
 * `agent-base-wallet` on Kubernetes) under the runtime id `base-wallet`. Its generated API key and wallet key
 * are stored sealed in the one base_wallets row, exactly as POST /configure/base-wallet stores an admin's, so a
 * restarted API starts the same agent on the same data and its wallets come back. Started at API start when the
 * row exists, else by the first wallet request, which waits a bounded time (CLOUD_WALLET_BASE_AGENT_WAIT_MS).
 */
@injectable()
export class ManagedBaseAgent {
  private attempt: StartAttempt | undefined
  private readonly stopping = new AbortController()
  private readonly log: Logger

  public constructor(
    private readonly wallets: CloudWalletsRepository,
    private readonly box: SecretBox,
    private readonly runtime: AgentRuntime,
    private readonly ports: AgentPortsRepository,
    @inject(CLOUD_WALLET_METRICS) private readonly metrics: CloudWalletMetrics,
    @inject(TOKENS.Config) private readonly config: Config,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'cloud-wallet-base-agent' })
  }

  /** API start: a managed agent that exists is started again in the background (its wallets answer soon after). */
  public resume(): void {
    this.wallets
      .findBaseWallet()
      .then((base) => {
        if (base?.managed) this.started().catch(() => undefined)
      })
      .catch((error: unknown) => this.log.error('Could not read the base wallet', { error: (error as Error).message }))
  }

  /**
   * Starts the managed agent unless this process started it already or is starting it; resolves once it answers.
   * A failed start is forgotten, so the next call tries again.
   */
  public started(): Promise<ManagedBaseAgentState> {
    if (this.stopping.signal.aborted) {
      return Promise.reject(new UnavailableError('The API is shutting down', BASE_AGENT_RETRY_AFTER_SECONDS))
    }
    if (!this.attempt) {
      const abort = new AbortController()
      const done = this.start(AbortSignal.any([this.stopping.signal, abort.signal]))
      const attempt: StartAttempt = { done, abort }
      this.attempt = attempt
      done.then(
        (state) => (attempt.settled = state),
        () => {
          if (this.attempt === attempt) this.attempt = undefined
        },
      )
    }
    return this.attempt.done
  }

  /** The managed agent's state when this process's start of it has already ended well; undefined otherwise. */
  public settled(): ManagedBaseAgentState | undefined {
    return this.attempt?.settled
  }

  /**
   * Waits at most CLOUD_WALLET_BASE_AGENT_WAIT_MS for the managed agent (starting it if needed).
   * @throws UnavailableError (503 with Retry-After) while it is still starting, or when its start failed
   */
  public async ready(): Promise<ManagedBaseAgentState> {
    const waitMs = sectionOf(this.config, cloudWalletConfig).baseAgentWaitMs
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), waitMs)
    })
    try {
      const outcome = await Promise.race([this.started(), timeout])
      if (outcome === 'timeout') {
        throw new UnavailableError(
          "The platform's base-wallet agent is starting: try again in a few seconds",
          BASE_AGENT_RETRY_AFTER_SECONDS,
        )
      }
      return outcome
    } catch (error) {
      if (error instanceof UnavailableError) throw error
      throw new UnavailableError(
        `The platform's base-wallet agent could not start (${reasonOf(error)}); the next request tries again`,
        BASE_AGENT_RETRY_AFTER_SECONDS,
        { cause: error },
      )
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * An admin configured another base wallet (the managed agent held none): the managed agent stops and its
   * data is deleted, so that a later managed agent, with new keys, starts on an empty wallet.
   */
  public async retire(): Promise<void> {
    const attempt = this.attempt
    this.attempt = undefined
    attempt?.abort.abort()
    await attempt?.done.catch(() => undefined)
    await this.runtime.remove(BASE_WALLET_AGENT_ID)
    if (this.runtime.kind === 'process' && this.config.database.kind === 'postgres') {
      await this.wallets.dropManagedAgentSchema()
    }
    this.log.info('Removed the managed base-wallet agent (a base wallet was configured instead)')
  }

  /** Stops waiting on the agent; the runtime stops the process itself when it closes. */
  public async close(): Promise<void> {
    this.stopping.abort()
    await this.attempt?.done.catch(() => undefined)
  }

  private async start(signal: AbortSignal): Promise<ManagedBaseAgentState> {
    const startedAt = process.hrtime.bigint()
    const base = await this.wallets.findOrCreateManagedBaseWallet({
      encryptedApiKey: this.box.seal(randomSecret(), BASE_WALLET_SCOPE),
      encryptedWalletKey: this.box.seal(randomSecret(), BASE_WALLET_SCOPE),
    })
    if (!base.managed) return { kind: 'external' }
    const apiKey = this.box.open(base.encryptedApiKey, BASE_WALLET_SCOPE)
    const walletKey = this.box.open(base.encryptedWalletKey, BASE_WALLET_SCOPE)
    const observe = (result: 'success' | 'failure') =>
      this.metrics.baseAgentStartDuration.observe(
        { runtime: this.runtime.kind, result },
        Number(process.hrtime.bigint() - startedAt) / 1e9,
      )
    try {
      const ports =
        this.runtime.kind === 'process'
          ? await this.ports.allocateForBaseWallet(base.id, this.config.agents.portCounterStart)
          : undefined
      // Its events go to the wallet event route with its API key as the token (agentEventsPath; docs/decisions.md).
      const result = await this.runtime.provision(
        {
          orgId: BASE_WALLET_AGENT_ID,
          label: BASE_AGENT_LABEL,
          ports,
          secrets: () => Promise.resolve({ apiKey, walletKey, eventToken: apiKey }),
          apiKey: () => Promise.resolve(apiKey),
        },
        { signal },
      )
      if (signal.aborted || result.phase === 'pending') {
        throw new UnavailableError('The base-wallet agent start was interrupted', BASE_AGENT_RETRY_AFTER_SECONDS)
      }
      if (result.phase !== 'ready') {
        throw new UpstreamError(result.phase === 'failed' ? result.reason : 'The agent is gone')
      }
      if (!(await this.wallets.recordManagedEndpoint(result.controllerEndpoint))) return { kind: 'external' }
      observe('success')
      this.log.info('Managed base-wallet agent ready', {
        controllerEndpoint: result.controllerEndpoint,
        runtime: this.runtime.kind,
      })
      return { kind: 'ready', agentEndpoint: result.controllerEndpoint }
    } catch (error) {
      if (!signal.aborted) {
        observe('failure')
        this.log.warn('Managed base-wallet agent did not start', { reason: reasonOf(error) })
      }
      throw error
    }
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof IdplaneError) return error.message
  return `unexpected: ${error instanceof Error ? error.message : String(error)}`
}
