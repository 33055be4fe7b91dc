import { createHash, timingSafeEqual } from 'node:crypto'
import { injectable } from 'inversify'
import { UnauthenticatedError } from '@idplane/common'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { SecretBox } from '../../infra/crypto/secret-box'
import { AgentRuntime, BASE_WALLET_AGENT_ID } from '../../agent-runtime/agent-runtime'
import { BASE_WALLET_SCOPE } from './base-wallet.entity'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { WalletRecords, type WalletRecordOutcome } from './wallet-records'

/**
 * Receives the base agent's events (BASE_WALLET_EVENTS_PATH). The base agent belongs to no organization, so it has
 * no per-organization event token: it posts with the base wallet's API key, which the platform holds sealed and
 * the agent was started with (docs/decisions.md, "Cloud wallet events and tenant webhooks").
 */
@injectable()
export class WalletEventsService {
  public constructor(
    private readonly wallets: CloudWalletsRepository,
    private readonly box: SecretBox,
    private readonly records: WalletRecords,
    private readonly runtime: AgentRuntime,
  ) {}

  /**
   * The base agent answers GET /agent now: the runtime's wait for it confirms at once (AgentRuntime.announceReady).
   * @returns whether a wait was woken
   * @throws UnauthenticatedError as authenticate
   */
  public async announceReady(token: string | undefined): Promise<boolean> {
    await this.authenticate(token)
    return this.runtime.announceReady(BASE_WALLET_AGENT_ID)
  }

  /** @throws UnauthenticatedError for a missing token, no base wallet, or a token that is not its API key */
  public async authenticate(token: string | undefined): Promise<void> {
    if (!token) throw new UnauthenticatedError('Agent event token required')
    // A recent read: the base agent posts events in batches, many a second under load.
    const base = await this.wallets.recentBaseWallet()
    if (!base || !sameSecret(token, this.box.open(base.encryptedApiKey, BASE_WALLET_SCOPE))) {
      throw new UnauthenticatedError('Invalid agent event token')
    }
  }

  /** Applies one event; false when it changed nothing (a repeat, stale, or not a wallet's record). */
  public async record(event: AgentEvent): Promise<boolean> {
    const outcome: WalletRecordOutcome = await this.records.applyEvent(event)
    return outcome === 'insert' || outcome === 'advance' || outcome === 'refresh'
  }
}

/** Constant-time comparison of two secrets of any length (their digests are compared). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(expected))
}
