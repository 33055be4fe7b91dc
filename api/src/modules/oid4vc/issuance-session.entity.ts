import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/**
 * An organization's OID4VCI issuance session (one per credential offer), kept from its agent's `openid4vc-issuance`
 * events for ordering, events and webhooks; reads stay at the agent (docs/decisions.md, "OpenID4VC platform API").
 * The id is Credo's session record id (a UUID). No code, token or nonce of the session is kept: the agent's events
 * carry none, and the mapper copies only the fields below. `createdAt` is the agent record's; `agentUpdatedAt`
 * orders updates (issuance-session.states.ts).
 */
@Entity({ tableName: 'oid4vc_issuance_sessions' })
@Index({ properties: ['organization', 'createdAt'] })
export class IssuanceSessionRecord extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  /** The OID4VCI issuer's id (`issuerId` of the issuer routes). */
  @Property({ type: 'string', length: 200 })
  issuerId!: string

  @Property({ type: 'string', length: 30 })
  state!: string

  /** The credential configurations (templates) offered. */
  @Property({ type: 'json', columnType: 'jsonb' })
  credentialConfigurationIds!: string[]

  /** The credential configurations issued so far. */
  @Property({ type: 'json', columnType: 'jsonb' })
  issuedCredentials!: string[]

  /** Whether the offer carries a pre-authorized code grant (the code itself stays in the agent). */
  @Property({ type: 'boolean' })
  isPreAuthorized!: boolean

  /** Whether redeeming the pre-authorized code needs a transaction code (the code itself stays in the agent). */
  @Property({ type: 'boolean' })
  hasTxCode!: boolean

  @Property({ type: 'text', nullable: true })
  errorMessage?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  expiresAt?: Date | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}
