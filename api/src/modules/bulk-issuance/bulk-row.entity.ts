import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { BulkRequest } from './bulk-request.entity'
import type { BulkRowStatus } from './bulk-issuance.states'

/** One data row of an uploaded file: its recipient, its credentialSubject values and where its issuance is. */
@Entity({ tableName: 'bulk_issuance_rows' })
@Unique({ properties: ['request', 'rowNumber'] })
@Index({ properties: ['request', 'status'] })
export class BulkRow extends BaseEntity {
  @ManyToOne(() => BulkRequest, { deleteRule: 'cascade' })
  request!: BulkRequest

  /** The spreadsheet row number: the header is row 1, the first data row 2. */
  @Property({ type: 'integer' })
  rowNumber!: number

  @Property({ type: 'string', length: 320 })
  email!: string

  /** The credentialSubject built from the row's cells (typed by the schema). */
  @Property({ type: 'json', columnType: 'jsonb' })
  attributes!: Record<string, unknown>

  @Property({ type: 'string', length: 20 })
  status!: BulkRowStatus

  /** Why the row is invalid (upload) or failed (execution). */
  @Property({ type: 'text', nullable: true })
  error?: string | null

  /** Executions that queued the row (1 for the first, +1 per retry of a failed row). */
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0

  /** The agent's credential exchange record id: the issuance record the offer created. */
  @Property({ type: 'string', length: 100, nullable: true })
  credentialRecordId?: string | null
}
