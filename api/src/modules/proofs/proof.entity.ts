import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/**
 * An organization's proof exchange (spec: Proof record), kept from its agent's answers and `proof` events. The id
 * is the agent's proof exchange record id (a UUID), so the platform's and the agent's records are named alike.
 * `createdAt` is the agent record's; `agentUpdatedAt` orders updates (proof.states.ts).
 */
@Entity({ tableName: 'proof_records' })
@Index({ properties: ['organization', 'createdAt'] })
export class ProofRecord extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 30 })
  state!: string

  /** `verifier` for the requests the platform sends; `prover` when the organization's agent was asked. */
  @Property({ type: 'string', length: 20 })
  role!: string

  @Property({ type: 'string', length: 100, nullable: true })
  connectionId?: string | null

  @Property({ type: 'string', length: 200 })
  threadId!: string

  @Property({ type: 'string', length: 10 })
  protocolVersion!: string

  /** Null until a presentation was checked. */
  @Property({ type: 'boolean', nullable: true })
  isVerified?: boolean | null

  /** Why the exchange was abandoned or declined, as the agent recorded it. */
  @Property({ type: 'text', nullable: true })
  errorMessage?: string | null

  /** The out-of-band invitation that carries the request (`proofs/oob`). */
  @Property({ type: 'string', length: 100, nullable: true })
  outOfBandId?: string | null

  /** `PRESENTATIONEXCHANGE` for the platform's requests; null for requests the organization received. */
  @Property({ type: 'string', length: 30, nullable: true })
  requestType?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}
