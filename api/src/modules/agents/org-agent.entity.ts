import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'
import type { AgentStatus } from './org-agent.states'

export const AGENT_RUNTIMES = ['process', 'kubernetes'] as const
export type AgentRuntimeKind = (typeof AGENT_RUNTIMES)[number]

/** `indy`: a did:indy DID the agent writes to the platform ledger (NYM through the trustee, then its endpoint). */
export const DID_METHODS = ['key', 'web', 'peer', 'indy'] as const
export type DidMethod = (typeof DID_METHODS)[number]

/**
 * An organization's agent and its provisioning state (spec: "Per-organization agent provisioning").
 * Secrets are sealed with the SecretBox (bound to the organization id); the event token is only hashed.
 */
@Entity({ tableName: 'org_agents' })
export class OrgAgent extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade', unique: true })
  organization!: Organization

  @Property({ type: 'string', length: 100 })
  label!: string

  @Property({ type: 'string', length: 20 })
  status: Opt<AgentStatus> = 'PENDING'

  @Property({ type: 'text', nullable: true })
  failureReason?: string | null

  /** Recorded once allocated, so a retry never takes new ports. */
  @Property({ type: 'integer', nullable: true })
  adminPort?: number | null

  @Property({ type: 'integer', nullable: true })
  inboundPort?: number | null

  /** The admin URL, recorded only after GET /agent answered 200 (never for an agent that did not answer). */
  @Property({ type: 'string', length: 2048, nullable: true })
  controllerEndpoint?: string | null

  @Property({ type: 'string', length: 20 })
  runtime!: AgentRuntimeKind

  @Property({ type: 'string', length: 10 })
  didMethod: Opt<DidMethod> = 'key'

  @Property({ type: 'string', length: 253, nullable: true })
  domain?: string | null

  @Property({ type: 'text' })
  encryptedApiKey!: string

  @Property({ type: 'text' })
  encryptedWalletKey!: string

  @Property({ type: 'text', nullable: true })
  encryptedSeed?: string | null

  /** SHA-256 of the token the agent presents on POST /v1/internal/agent-events. */
  @Property({ type: 'string', length: 64 })
  @Unique()
  eventTokenHash!: string

  /** Times the runtime restarted the agent after it crashed (process runtime). */
  @Property({ type: 'integer' })
  restarts: Opt<number> = 0

  /** The last crash: exit code or signal, and when (process runtime). */
  @Property({ type: 'integer', nullable: true })
  lastExitCode?: number | null

  @Property({ type: 'string', length: 20, nullable: true })
  lastExitSignal?: string | null

  @Property({ type: 'datetime', nullable: true })
  lastExitAt?: Date | null

  /**
   * A short claim on a provisioning step that calls the agent (the first DID): who holds it and until when.
   * The HTTP call runs outside any transaction; only the holder of an unexpired claim records its result.
   */
  @Property({ type: 'uuid', nullable: true })
  claimToken?: string | null

  @Property({ type: 'datetime', nullable: true })
  claimExpiresAt?: Date | null
}
