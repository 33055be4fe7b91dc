import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  nullable,
  object,
  oneOf,
  optional,
  pageOf,
  string,
  uuid,
} from '../../../infra/http/data-schema'
import type { Page } from '../../../infra/http/pagination'
import { BULK_SCHEMA_TYPES, type BulkRowProblem } from '../bulk-request.entity'
import { BULK_REQUEST_STATUSES, BULK_ROW_STATUSES } from '../bulk-issuance.states'
import type { BulkTemplate } from '../bulk-templates.service'
import type { BulkRequestView, BulkRowView, StatusCounts } from '../bulk-execution.service'
import type { TemplateColumn } from '../csv-template'
import type { UploadSummary } from '../bulk-upload.service'

const COLUMN_SCHEMA = object<TemplateColumn>('BulkTemplateColumn', {
  name: string,
  dataType: string,
  isRequired: boolean,
  displayName: optional(string),
})

export const TEMPLATE_SCHEMA = object<BulkTemplate>('BulkTemplate', {
  templateId: uuid,
  schemaType: oneOf(BULK_SCHEMA_TYPES),
  name: string,
  version: string,
  schemaLedgerId: string,
  credentialDefinitionId: optional(string),
  columns: arrayOf(COLUMN_SCHEMA),
})

const PROBLEM_SCHEMA = object<BulkRowProblem>('BulkRowProblem', { row: integer, column: string, reason: string })

export const UPLOAD_SUMMARY_SCHEMA = object<UploadSummary>('BulkUploadSummary', {
  requestId: uuid,
  fileName: string,
  templateId: uuid,
  schemaType: oneOf(BULK_SCHEMA_TYPES),
  rows: integer,
  valid: integer,
  invalid: object<UploadSummary['invalid']>(undefined, { count: integer, rows: arrayOf(PROBLEM_SCHEMA) }),
})

const COUNTS_SCHEMA = object<StatusCounts>('BulkRowCounts', {
  invalid: integer,
  pending: integer,
  queued: integer,
  sent: integer,
  failed: integer,
})

const REQUEST_PROPERTIES = {
  requestId: uuid,
  fileName: string,
  schemaType: oneOf(BULK_SCHEMA_TYPES),
  templateId: uuid,
  status: oneOf(BULK_REQUEST_STATUSES),
  totalRows: integer,
  counts: COUNTS_SCHEMA,
  clientId: nullable(string),
  createdAt: dateTime,
  startedAt: nullable(dateTime),
  completedAt: nullable(dateTime),
}

/** What `POST /:requestId/bulk` answers: the request with how many rows this call queued. */
export type BulkExecution = BulkRequestView & { queuedNow: number }

export const EXECUTION_SCHEMA = object<BulkExecution>('BulkExecution', {
  ...REQUEST_PROPERTIES,
  queuedNow: integer,
})

const ROW_SCHEMA = object<BulkRowView>('BulkRow', {
  row: integer,
  email: string,
  status: oneOf(BULK_ROW_STATUSES),
  attempts: integer,
  credentialRecordId: nullable(string),
  error: nullable(string),
})

export type BulkProgress = BulkRequestView & { rows: Page<BulkRowView> }

export const PROGRESS_SCHEMA = object<BulkProgress>('BulkProgress', {
  ...REQUEST_PROPERTIES,
  rows: pageOf(ROW_SCHEMA),
})
