import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { agentSchemaName, BASE_WALLET_AGENT_ID } from '../../agent-runtime/agent-runtime'
import { User } from '../users/user.entity'
import { BASE_WALLET_SCOPE, BaseWallet } from './base-wallet.entity'
import { CloudWallet } from './cloud-wallet.entity'
import { BaseRepository } from '../../infra/db/base.repository'
import { RecentReads } from '../../infra/db/recent-reads'

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
  private readonly recentBase = new RecentReads<'base', BaseWallet>(WALLET_ROW_REUSE_MS, 1, () =>
    this.em.isInTransaction(),
  )
  private readonly recentWallets = new RecentReads<string, CloudWallet>(WALLET_ROW_REUSE_MS, WALLETS_REMEMBERED, () =>
    this.em.isInTransaction(),
  )

  public constructor(em: EntityManager) {
    super(em, CloudWallet)
  }

  public findBaseWallet(): Promise<BaseWallet | null> {
    return this.em.fork().findOne(BaseWallet, { scope: BASE_WALLET_SCOPE })
  }

  /** The base wallet row as read at most WALLET_ROW_REUSE_MS ago (none is not remembered); this process's writes clear it. */
  public recentBaseWallet(): Promise<BaseWallet | null> {
    return this.recentBase.get('base', () => this.findBaseWallet())
  }

  /**
   * Creates or replaces the one base wallet row with an agent an admin configured (configure is idempotent).
   * A managed agent's row becomes the configured one: no longer managed, its ports forgotten.
   */
  public async saveBaseWallet(fields: BaseWalletFields): Promise<BaseWallet> {
    this.recentBase.forget('base')
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
    this.recentBase.forget('base')
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
    this.recentBase.forget('base')
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
    return this.recentWallets.get(`user:${userId}`, () => this.findForUser(userId))
  }

  /** The wallet of a base-agent tenant (its events name the tenant), as recentWalletOfUser. */
  public recentWalletOfTenant(tenantId: string): Promise<CloudWallet | null> {
    return this.recentWallets.get(`tenant:${tenantId}`, () => this.em.fork().findOne(CloudWallet, { tenantId }))
  }

  /**
   * A read of the user's or the tenant's wallet that began before this insert is forgotten once it is done: it may
   * still answer "none", and calls made after the create would share it.
   * @throws UniqueConstraintViolationException when the user already has one (a concurrent create)
   */
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
    this.recentWallets.forget(`user:${fields.userId}`)
    this.recentWallets.forget(`tenant:${fields.tenantId}`)
    return wallet
  }
}
