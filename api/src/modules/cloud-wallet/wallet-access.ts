import { injectable } from 'inversify'
import { ForbiddenError, Logger, NotFoundError, UpstreamError } from '@idplane/common'
import type { AgentClient } from '../../agent-client/agent-client'
import type { Principal } from '../../infra/auth/token.service'
import { BaseWalletService } from './base-wallet.service'
import type { CloudWallet } from './cloud-wallet.entity'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import type { WalletRecordKind } from './wallet-record.entity'
import { WalletRecords } from './wallet-records'
import { WalletRecordsRepository } from './wallet-records.repository'

export const NO_WALLET = 'You have no cloud wallet: create one first with POST /v1/create-wallet'

export type UserPrincipal = Extract<Principal, { kind: 'user' }>

/** The caller's wallet and the base agent acting as its tenant. */
export interface TenantWallet {
  wallet: CloudWallet
  agent: AgentClient
}

/**
 * How every wallet route reaches the caller's own wallet (spec: Cloud wallet): the wallet row of the signed-in
 * user and the base agent acting only as that tenant (X-Tenant-Id), so another user's record ids are unknown
 * there (404). Single reads ask the agent and update the holder record on the way (docs/decisions.md).
 */
@injectable()
export class WalletAccess {
  private readonly log: Logger

  public constructor(
    private readonly base: BaseWalletService,
    private readonly wallets: CloudWalletsRepository,
    private readonly records: WalletRecordsRepository,
    private readonly walletRecords: WalletRecords,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'cloud-wallet' })
  }

  /**
   * The caller's wallet row (no agent needed).
   * @throws ForbiddenError for an organization's client
   * @throws NotFoundError when the caller has no wallet
   */
  public async ownWallet(principal: Principal): Promise<{ user: UserPrincipal; wallet: CloudWallet }> {
    const user = asUser(principal)
    const wallet = await this.wallets.findForUser(user.userId)
    if (!wallet) throw new NotFoundError(NO_WALLET)
    return { user, wallet }
  }

  /**
   * The caller's wallet and the base agent acting as its tenant.
   * @throws InvalidStateError (409) while no base wallet is configured
   * @throws NotFoundError when the caller has no wallet yet
   */
  public async walletOf(principal: Principal): Promise<TenantWallet> {
    const user = asUser(principal)
    // Rows read for a recent call serve this one: neither changes under an existing wallet.
    const base = await this.base.walletClient()
    const wallet = await this.wallets.recentWalletOfUser(user.userId)
    if (!wallet) throw new NotFoundError(NO_WALLET)
    return { wallet, agent: base.forTenant(wallet.tenantId) }
  }

  /** The base agent acting as the caller's tenant. */
  public async tenantOf(principal: Principal): Promise<AgentClient> {
    return (await this.walletOf(principal)).agent
  }

  /**
   * One record: the agent's current answer (it is the source of the records), applied to the holder record on
   * the way. While the agent cannot be reached, the stored record answers instead of a 502.
   * @throws NotFoundError when the tenant has no such record (another wallet's id included)
   */
  public async readThrough<T extends object>(
    owner: TenantWallet,
    kind: WalletRecordKind,
    recordId: string,
    read: () => Promise<T>,
  ): Promise<T> {
    let answer: T
    try {
      answer = await read()
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error
      const stored = await this.records.findOne(owner.wallet.id, kind, recordId)
      if (!stored) throw error
      return stored.record as T
    }
    await this.remember(owner, kind, answer)
    return answer
  }

  /** Applies an agent answer to the holder records; a failure there is logged, the call itself succeeded. */
  public async remember(owner: TenantWallet, kind: WalletRecordKind, record: object): Promise<void> {
    await this.walletRecords
      .applyAnswered(
        { walletId: owner.wallet.id, tenantId: owner.wallet.tenantId },
        kind,
        record as Record<string, unknown>,
      )
      .catch((error: unknown) =>
        this.log.warn('Could not apply an agent answer to the wallet records', {
          kind,
          error: (error as Error).message,
        }),
      )
  }
}

/** @throws ForbiddenError for an organization's client (wallets are people's) */
export function asUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') {
    throw new ForbiddenError('Cloud wallets belong to signed-in users; an organization client has none')
  }
  return principal
}

/** The filters that were given (class-transformer leaves absent ones as undefined keys). */
export function definedFields<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Partial<T>
}
