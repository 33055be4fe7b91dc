import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy'
import type { DisclosedCredentialJson } from '@idplane/common/agent-contract/openid4vc-api'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/**
 * An organization's OID4VP verification session (one per authorization request), kept from its agent's
 * `openid4vc-verification` events for ordering, events and webhooks; reads stay at the agent (docs/decisions.md,
 * "OpenID4VC platform API"). The id is Credo's session record id (a UUID). Neither the request's nonce nor the
 * wallet's response is kept: only what the holder disclosed, as the session read shows it. `createdAt` is the agent
 * record's; `agentUpdatedAt` orders updates (verification-session.states.ts).
 */
@Entity({ tableName: 'oid4vp_verification_sessions' })
@Index({ properties: ['organization', 'createdAt'] })
export class VerificationSessionRecord extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  /** The OID4VP verifier's id (`verifierId` of the verifier routes). */
  @Property({ type: 'string', length: 200 })
  verifierId!: string

  @Property({ type: 'string', length: 30 })
  state!: string

  /** `openid4vp://?client_id=...&request_uri=...`, as the session read shows it. */
  @Property({ type: 'text', nullable: true })
  authorizationRequestUri?: string | null

  @Property({ type: 'text', nullable: true })
  errorMessage?: string | null

  /** What the holder disclosed, once the response is verified (the agent's answer, as the session read shows it). */
  @Property({ type: 'json', columnType: 'jsonb', nullable: true })
  disclosed?: DisclosedCredentialJson[] | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  expiresAt?: Date | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}
