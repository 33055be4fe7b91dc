import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { agentSchemaName, BASE_WALLET_AGENT_ID } from '../../agent-runtime/agent-runtime'
import { User } from '../users/user.entity'
import { BASE_WALLET_SCOPE, BaseWallet } from './base-wallet.entity'
import { CloudWallet } from './cloud-wallet.entity'
import { BaseRepository } from '../../infra/db/base.repository'
import { BoundedMap } from '@idplane/common'

/**
 * How long a row read for one wallet call serves the next ones (`recentBaseWallet`, `recentWalletOfUser`): every
 * wallet call needs the base wallet's row and the caller's wallet (every base-agent event its tenant's), and 100 holders polling twice a second made them
 * two of the API's most frequent statements (docs/benchmarks.md). Neither changes under a wallet: a wallet is never
 * moved, and the base wallet's agent cannot change while wallets exist (configure refuses).
 */
export const WALLET_ROW_REUSE_MS = 5_000
/** Wallet rows remembered, by user and by tenant (a bound on memory, not an expected count). */
const WALLETS_REMEMBERED = 10_000

export interface BaseWalletFields {
  agentEndpoint: string
  encryptedApiKey: string
  encryptedWalletKey: string
  configuredBy: string | null
}

export interface ManagedBaseWalletKeys {
  encryptedApiKey: string
  encryptedWalletKey: string
}

export interface NewCloudWallet {
  userId: string
  email: string
  tenantId: string
  label: string
  connectionImageUrl?: string
}

/** The base wallet row and the users' wallets. */
@injectable()
export class CloudWalletsRepository extends BaseRepository<CloudWallet> {
  private recentBase: { row: BaseWallet; readAt: number } | undefined
  private readonly recentWallets = new BoundedMap<string, { wallet: CloudWallet; readAt: number }>(WALLETS_REMEMBERED)

  public constructor(em: EntityManager) {
    super(em, CloudWallet)
  }

  public findBaseWallet(): Promise<BaseWallet | null> {
    return this.em.fork().findOne(BaseWallet, { scope: BASE_WALLET_SCOPE })
  }

  /** The base wallet row as read at most WALLET_ROW_REUSE_MS ago (none is not remembered); this process's writes clear it. */
  public async recentBaseWallet(): Promise<BaseWallet | null> {
    const now = Date.now()
    if (this.recentBase && now - this.recentBase.readAt < WALLET_ROW_REUSE_MS) return this.recentBase.row
    const row = await this.findBaseWallet()
    this.recentBase = row ? { row, readAt: now } : undefined
    return row
  }

  /**
   * Creates or replaces the one base wallet row with an agent an admin configured (configure is idempotent).
   * A managed agent's row becomes the configured one: no longer managed, its ports forgotten.
   */
  public async saveBaseWallet(fields: BaseWalletFields): Promise<BaseWallet> {
    this.recentBase = undefined
    const em = this.em.fork()
    const configured = { ...fields, managed: false, adminPort: null, inboundPort: null }
    const existing = await em.findOne(BaseWallet, { scope: BASE_WALLET_SCOPE })
    const row = existing ?? em.create(BaseWallet, { scope: BASE_WALLET_SCOPE, ...configured })
    if (existing) em.assign(existing, configured)
    await em.flush()
    return row
  }

  /**
   * The base wallet row, inserting the platform's managed agent's (no endpoint yet) when there is none. Of two
   * concurrent callers (API replicas, a configure) the first insert wins and every caller reads the same row.
   */
  public async findOrCreateManagedBaseWallet(keys: ManagedBaseWalletKeys): Promise<BaseWallet> {
    this.recentBase = undefined
    const em = this.em.fork()
    const now = new Date()
    await em
      .createQueryBuilder(BaseWallet)
      .insert({
        id: randomUUID(),
        scope: BASE_WALLET_SCOPE,
        agentEndpoint: null,
        encryptedApiKey: keys.encryptedApiKey,
        encryptedWalletKey: keys.encryptedWalletKey,
        configuredBy: null,
        managed: true,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict('scope')
      .ignore()
      .execute('run')
    return em.findOneOrFail(BaseWallet, { scope: BASE_WALLET_SCOPE })
  }

  /** Records where the managed agent answered; false when the row is no longer the managed agent's. */
  public async recordManagedEndpoint(agentEndpoint: string): Promise<boolean> {
    this.recentBase = undefined
    const updated = await this.em
      .fork()
      .nativeUpdate(BaseWallet, { scope: BASE_WALLET_SCOPE, managed: true }, { agentEndpoint, updatedAt: new Date() })
    return updated === 1
  }

  /** Drops the managed agent's schema (its data when process-runtime agents share the API's PostgreSQL). */
  public async dropManagedAgentSchema(): Promise<void> {
    // A fixed name (agent_base_wallet), never from input.
    const schema = agentSchemaName(BASE_WALLET_AGENT_ID)
    await this.em.fork().getConnection().execute(`drop schema if exists "${schema}" cascade`)
  }

  public countWallets(): Promise<number> {
    return this.em.fork().count(CloudWallet, {})
  }

  public findForUser(userId: string): Promise<CloudWallet | null> {
    return this.em.fork().findOne(CloudWallet, { user: userId })
  }

  /** The user's wallet as read at most WALLET_ROW_REUSE_MS ago; none is not remembered (it may be created now). */
  public recentWalletOfUser(userId: string): Promise<CloudWallet | null> {
    return this.recentWallet(`user:${userId}`, () => this.findForUser(userId))
  }

  /** The wallet of a base-agent tenant (its events name the tenant), as recentWalletOfUser. */
  public recentWalletOfTenant(tenantId: string): Promise<CloudWallet | null> {
    return this.recentWallet(`tenant:${tenantId}`, () => this.em.fork().findOne(CloudWallet, { tenantId }))
  }

  private async recentWallet(key: string, read: () => Promise<CloudWallet | null>): Promise<CloudWallet | null> {
    const now = Date.now()
    const known = this.recentWallets.get(key)
    if (known && now - known.readAt < WALLET_ROW_REUSE_MS) return known.wallet
    const wallet = await read()
    if (wallet) this.recentWallets.set(key, { wallet, readAt: now })
    else this.recentWallets.delete(key)
    return wallet
  }

  /** @throws UniqueConstraintViolationException when the user already has one (a concurrent create) */
  public async create(fields: NewCloudWallet): Promise<CloudWallet> {
    const em = this.em.fork()
    const wallet = em.create(CloudWallet, {
      user: em.getReference(User, fields.userId),
      email: fields.email,
      tenantId: fields.tenantId,
      label: fields.label,
      connectionImageUrl: fields.connectionImageUrl ?? null,
    })
    await em.flush()
    return wallet
  }
}
