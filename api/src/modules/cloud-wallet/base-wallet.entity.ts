import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'

/** The one base wallet of the platform: `scope` is always this value, so a second row cannot exist. */
export const BASE_WALLET_SCOPE = 'platform'

/**
 * The multi-tenant agent that holds every user's cloud wallet (spec: Cloud wallet, `POST /configure/base-wallet`).
 * Its API key and wallet key are stored sealed (SecretBox, bound to the scope); `managed` marks the agent the
 * platform runs itself through its agent runtime (CLOUD_WALLET_BASE_AGENT=managed) rather than one an admin
 * configured.
 */
@Entity({ tableName: 'base_wallets' })
export class BaseWallet extends BaseEntity {
  @Property({ type: 'string', length: 20 })
  @Unique()
  scope: string = BASE_WALLET_SCOPE

  /**
   * The admin API's base URL, `protocol://host:port` (a bare domain was given `https://`). Null only for a
   * managed agent that has not answered GET /agent yet.
   */
  @Property({ type: 'string', length: 2048, nullable: true })
  agentEndpoint?: string | null

  @Property({ type: 'text', hidden: true })
  encryptedApiKey!: string

  @Property({ type: 'text', hidden: true })
  encryptedWalletKey!: string

  /** The platform admin who configured it; null when the platform started the agent itself. */
  @Property({ type: 'uuid', nullable: true })
  configuredBy?: string | null

  /** The platform runs this agent itself (agent runtime id `base-wallet`); false: an admin configured it. */
  @Property({ type: 'boolean' })
  managed: Opt<boolean> = false

  /** Process runtime, managed agent: its ports, taken once from the agents' port counters and kept. */
  @Property({ type: 'integer', nullable: true })
  adminPort?: number | null

  @Property({ type: 'integer', nullable: true })
  inboundPort?: number | null
}
