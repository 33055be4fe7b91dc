import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { agentSchemaName, BASE_WALLET_AGENT_ID } from '../../agent-runtime/agent-runtime'
import { User } from '../users/user.entity'
import { BASE_WALLET_SCOPE, BaseWallet } from './base-wallet.entity'
import { CloudWallet } from './cloud-wallet.entity'
import { BaseRepository } from '../../infra/db/base.repository'

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
  public constructor(em: EntityManager) {
    super(em, CloudWallet)
  }

  public findBaseWallet(): Promise<BaseWallet | null> {
    return this.em.fork().findOne(BaseWallet, { scope: BASE_WALLET_SCOPE })
  }

  /**
   * Creates or replaces the one base wallet row with an agent an admin configured (configure is idempotent).
   * A managed agent's row becomes the configured one: no longer managed, its ports forgotten.
   */
  public async saveBaseWallet(fields: BaseWalletFields): Promise<BaseWallet> {
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
