import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'
import type { BulkRequestStatus } from './bulk-issuance.states'

export const BULK_SCHEMA_TYPES = ['W3C', 'INDY'] as const
export type BulkSchemaType = (typeof BULK_SCHEMA_TYPES)[number]

/** One invalid cell (or row) found at upload: the spreadsheet row number, the column and why. */
export interface BulkRowProblem {
  row: number
  column: string
  reason: string
}

/** What the execution route's body adds to the mails (spec: logo URL and platform name) and for tracking. */
export interface BulkExecutionOptions {
  clientId?: string
  organizationLogoUrl?: string
  platformName?: string
  /** The execution's template override (query `templateId`), when it differs from the upload's. */
  templateId?: string
}

/**
 * One uploaded CSV file of recipients (spec: `POST /orgs/:orgId/bulk/upload`); its rows are BulkRow records.
 * `requestId` in the API is this record's id.
 */
@Entity({ tableName: 'bulk_issuance_requests' })
@Index({ properties: ['organization', 'createdAt'] })
@Index({ properties: ['status'] })
export class BulkRequest extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 10 })
  schemaType!: BulkSchemaType

  /** The template: the JSON schema record id (W3C) or the credential definition record id (INDY). */
  @Property({ type: 'uuid' })
  templateId!: string

  @Property({ type: 'string', length: 255 })
  fileName!: string

  @Property({ type: 'boolean' })
  isValidateSchema!: boolean

  @Property({ type: 'string', length: 20 })
  status: Opt<BulkRequestStatus> = 'uploaded'

  @Property({ type: 'integer' })
  totalRows!: number

  @Property({ type: 'integer' })
  validRows!: number

  /** The upload's problems, at most BULK_PROBLEMS_KEPT of them (the counts are exact). */
  @Property({ type: 'json', columnType: 'jsonb' })
  problems!: BulkRowProblem[]

  @Property({ type: 'json', columnType: 'jsonb' })
  executionOptions: Opt<BulkExecutionOptions> = {}

  /** The uploading user; null for a machine-to-machine client. */
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  startedAt?: Date | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null
}
