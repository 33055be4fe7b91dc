import { setImmediate } from 'node:timers/promises'
import type { IncomingMessage } from 'node:http'
import { inject, injectable } from 'inversify'
import { InvalidInputError, type FieldError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { bulkIssuanceConfig, type BulkIssuanceConfig } from './bulk-issuance.config'
import { BulkIssuanceRepository, type NewBulkRow } from './bulk-issuance.repository'
import { BulkMetrics } from './bulk-metrics'
import type { BulkRowProblem, BulkSchemaType } from './bulk-request.entity'
import { BulkTemplatesService } from './bulk-templates.service'
import { EMAIL_COLUMN, headerName } from './csv-template'
import { readCsvUpload } from './csv-upload'
import { RowChecker } from './row-validation'

/** Longest stretch of row checking between two turns of the event loop (/health/live answers in between). */
const CHECK_SLICE_MS = 20

/** Problems kept with the request and listed in the answer; the counts are always exact. */
export const BULK_PROBLEMS_KEPT = 1_000

export interface UploadQuery {
  schemaType: BulkSchemaType
  templateId: string
  isValidateSchema: boolean
}

export interface UploadSummary {
  requestId: string
  fileName: string
  templateId: string
  schemaType: BulkSchemaType
  rows: number
  valid: number
  invalid: { count: number; rows: BulkRowProblem[] }
}

@injectable()
export class BulkUploadService {
  private readonly settings: BulkIssuanceConfig

  public constructor(
    private readonly repository: BulkIssuanceRepository,
    private readonly templates: BulkTemplatesService,
    @inject(BulkMetrics) private readonly metrics: BulkMetrics,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.settings = sectionOf(config, bulkIssuanceConfig)
  }

  /**
   * Reads the multipart upload as it arrives, checks every row and stores the request with its rows (valid and
   * invalid) in one transaction. A file refused as a whole (limits, not CSV, wrong headers, formulas) stores
   * nothing.
   */
  public async upload(
    orgId: string,
    userId: string | null,
    query: UploadQuery,
    req: IncomingMessage,
  ): Promise<UploadSummary> {
    // The template first: an unknown one is a 404 before a byte of the file is read.
    const template = await this.templates.resolve(orgId, query.schemaType, query.templateId)
    const upload = await readCsvUpload(req, this.settings)
    const columns = template.attributeColumns
    const expected = [EMAIL_COLUMN, ...columns.map((column) => column.name)]
    const positions = headerPositions(upload.header, expected)
    const checker = new RowChecker(
      columns,
      query.isValidateSchema ? template.validator : undefined,
      template.typedCells,
    )
    const rows: NewBulkRow[] = []
    const problems: BulkRowProblem[] = []
    let invalidCount = 0
    let sliceStarted = performance.now()
    for (const record of upload.records) {
      // Checking 10 000 rows takes seconds with long values and patterns: other requests get the loop in between.
      if (performance.now() - sliceStarted > CHECK_SLICE_MS) {
        await setImmediate()
        sliceStarted = performance.now()
      }
      const cells: Record<string, string> = {}
      for (const [name, index] of positions) cells[name] = record.cells[index] ?? ''
      const checked = checker.check(cells)
      const rowProblems = [...checked.problems]
      if (record.cells.length !== upload.header.length) {
        rowProblems.unshift({
          column: '(row)',
          reason: `has ${record.cells.length} cells, the header has ${upload.header.length}`,
        })
      }
      if (rowProblems.length > 0) {
        invalidCount += 1
        for (const problem of rowProblems) {
          if (problems.length < BULK_PROBLEMS_KEPT) problems.push({ row: record.rowNumber, ...problem })
        }
      }
      rows.push({
        rowNumber: record.rowNumber,
        email: checked.email.slice(0, 320),
        attributes: checked.attributes,
        status: rowProblems.length > 0 ? 'invalid' : 'pending',
        error:
          rowProblems.length > 0
            ? rowProblems.map((problem) => `${problem.column}: ${problem.reason}`).join('; ')
            : null,
      })
    }
    const fileName = (upload.fileName ?? 'upload.csv').slice(0, 255)
    const request = await this.repository.transactional(() =>
      this.repository.addRequest(
        orgId,
        {
          schemaType: query.schemaType,
          templateId: template.templateId,
          fileName,
          isValidateSchema: query.isValidateSchema,
          totalRows: rows.length,
          validRows: rows.length - invalidCount,
          problems,
          createdBy: userId,
        },
        rows,
      ),
    )
    this.metrics.rows.inc({ status: 'invalid' }, invalidCount)
    this.metrics.rows.inc({ status: 'pending' }, rows.length - invalidCount)
    return {
      requestId: request.id,
      fileName,
      templateId: template.templateId,
      schemaType: query.schemaType,
      rows: rows.length,
      valid: rows.length - invalidCount,
      invalid: { count: invalidCount, rows: problems },
    }
  }
}

/**
 * Where each template column is in the file's header (any order).
 * @throws InvalidInputError naming missing, unknown and repeated columns
 */
export function headerPositions(header: readonly string[], expected: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>()
  const errors: FieldError[] = []
  header.forEach((cell, index) => {
    const name = headerName(cell)
    if (!expected.includes(name))
      errors.push({ field: name.slice(0, 100) || `column ${index + 1}`, message: 'is not a column of the template' })
    else if (positions.has(name)) errors.push({ field: name, message: 'appears twice' })
    else positions.set(name, index)
  })
  for (const name of expected)
    if (!header.some((cell) => headerName(cell) === name)) errors.push({ field: name, message: 'is missing' })
  if (errors.length > 0) {
    throw new InvalidInputError(
      `The header line does not match the template (expected ${expected.join(', ')}): ${errors
        .slice(0, 20)
        .map((error) => `${error.field} ${error.message}`)
        .join('; ')}`,
      errors.slice(0, 100),
    )
  }
  return positions
}
