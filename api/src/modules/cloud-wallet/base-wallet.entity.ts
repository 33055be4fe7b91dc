import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'

/** The one base wallet of the platform: `scope` is always this value, so a second row cannot exist. */
export const BASE_WALLET_SCOPE = 'platform'

/**
 * The multi-tenant agent that holds every user's cloud wallet (spec: Cloud wallet, `POST /configure/base-wallet`).
 * Its API key and wallet key are stored sealed (SecretBox, bound to the scope); `managed` marks the agent the
 * platform started itself (CLOUD_WALLET_BASE_AGENT=auto) rather than one an admin configured.
 */
@Entity({ tableName: 'base_wallets' })
export class BaseWallet extends BaseEntity {
  @Property({ type: 'string', length: 20 })
  @Unique()
  scope: string = BASE_WALLET_SCOPE

  /** The admin API's base URL, `protocol://host:port` (a bare domain was given `https://`). */
  @Property({ type: 'string', length: 2048 })
  agentEndpoint!: string

  @Property({ type: 'text', hidden: true })
  encryptedApiKey!: string

  @Property({ type: 'text', hidden: true })
  encryptedWalletKey!: string

  /** The platform admin who configured it; null when the platform started the agent itself. */
  @Property({ type: 'uuid', nullable: true })
  configuredBy?: string | null
}
