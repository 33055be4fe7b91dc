import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { User } from '../users/user.entity'
import { BASE_WALLET_SCOPE, BaseWallet } from './base-wallet.entity'
import { CloudWallet } from './cloud-wallet.entity'

export interface BaseWalletFields {
  agentEndpoint: string
  encryptedApiKey: string
  encryptedWalletKey: string
  configuredBy: string | null
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
export class CloudWalletsRepository {
  public constructor(private readonly em: EntityManager) {}

  public findBaseWallet(): Promise<BaseWallet | null> {
    return this.em.fork().findOne(BaseWallet, { scope: BASE_WALLET_SCOPE })
  }

  /** Creates or replaces the one base wallet row (configure is idempotent). */
  public async saveBaseWallet(fields: BaseWalletFields): Promise<BaseWallet> {
    const em = this.em.fork()
    const existing = await em.findOne(BaseWallet, { scope: BASE_WALLET_SCOPE })
    const row = existing ?? em.create(BaseWallet, { scope: BASE_WALLET_SCOPE, ...fields })
    if (existing) em.assign(existing, fields)
    await em.flush()
    return row
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
