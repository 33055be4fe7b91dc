import { injectable } from 'inversify'
import { LockMode, type FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { Organization } from '../orgs/organization.entity'
import { BulkRequest } from './bulk-request.entity'
import type { BulkRowStatus } from './bulk-issuance.states'
import { BulkRow } from './bulk-row.entity'
import { OrgRepository } from '../../infra/db/base.repository'
import { pageOffset } from '../../infra/http/pagination'

/** Rows inserted per statement: large enough to be fast, small enough for PostgreSQL's parameter limit. */
const INSERT_CHUNK = 1_000

export type NewBulkRow = Pick<BulkRow, 'rowNumber' | 'email' | 'attributes' | 'status' | 'error'>

/** A row a job must work on: its ids and how many executions queued it. */
export interface QueuedRowRef {
  rowId: string
  requestId: string
  orgId: string
  attempts: number
}

/** The request's rows that can be queued: `pending` or `failed`, all of them or the given row numbers. */
function queueable(requestId: string, rowNumbers?: readonly number[]): FilterQuery<BulkRow> {
  return {
    request: requestId,
    status: { $in: ['pending', 'failed'] },
    ...(rowNumbers ? { rowNumber: { $in: [...rowNumbers] } } : {}),
  }
}

/** Bulk issuance requests and rows; organization-scoped reads take `orgId` first. */
@injectable()
export class BulkIssuanceRepository extends OrgRepository<BulkRequest> {
  public constructor(em: EntityManager) {
    super(em, BulkRequest)
  }

  /** Stores a request with all its rows, in the caller's transaction. */
  public async addRequest(
    orgId: string,
    fields: Omit<BulkRequest, 'id' | 'createdAt' | 'updatedAt' | 'organization' | 'status' | 'executionOptions'>,
    rows: readonly NewBulkRow[],
  ): Promise<BulkRequest> {
    const request = this.em.create(BulkRequest, { ...fields, organization: this.em.getReference(Organization, orgId) })
    await this.em.persist(request).flush()
    const now = new Date()
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const chunk = rows.slice(start, start + INSERT_CHUNK).map((row) => {
        const defaults = new BulkRow()
        return { ...row, id: defaults.id, request: request.id, attempts: 0, createdAt: now, updatedAt: now }
      })
      await this.em.insertMany(BulkRow, chunk)
    }
    return request
  }

  public findRequest(orgId: string, requestId: string): Promise<BulkRequest | null> {
    return this.em.findOne(BulkRequest, { id: requestId, organization: orgId })
  }

  /** The request, locked until the transaction ends (executions and row completions of one request serialize). */
  public lockRequest(requestId: string): Promise<BulkRequest | null> {
    return this.em.findOne(BulkRequest, { id: requestId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  }

  /**
   * Queues the request's rows that are `pending` or `failed` (all of them, or the given row numbers):
   * status `queued`, one more attempt, error cleared.
   * @returns the rows queued now
   */
  public async queueRows(
    requestId: string,
    rowNumbers?: readonly number[],
  ): Promise<{ id: string; attempts: number }[]> {
    const rows = await this.em.find(BulkRow, queueable(requestId, rowNumbers), {
      fields: ['id', 'attempts'],
      orderBy: { rowNumber: 'asc' },
    })
    if (rows.length === 0) return []
    const ids = rows.map((row) => row.id)
    await this.em.nativeUpdate(BulkRow, { id: { $in: ids } }, { status: 'queued', error: null, updatedAt: new Date() })
    // attempts + 1 in SQL: the rows' current values, whatever this em loaded.
    await this.em
      .getConnection()
      .execute(
        `update "bulk_issuance_rows" set "attempts" = "attempts" + 1 where "id" in (${ids.map(() => '?').join(',')})`,
        ids,
        'run',
        this.em.getTransactionContext(),
      )
    return rows.map((row) => ({ id: row.id, attempts: row.attempts + 1 }))
  }

  /** The rows queueRows would queue (`pending` or `failed`; all of them, or the given row numbers), by number. */
  public rowsToQueue(requestId: string, rowNumbers?: readonly number[]): Promise<BulkRow[]> {
    return this.em.find(BulkRow, queueable(requestId, rowNumbers), { orderBy: { rowNumber: 'asc' } })
  }

  /** Valid rows of the request among `rowNumbers`, by number (to tell the caller which selected rows cannot run). */
  public async rowStatuses(requestId: string, rowNumbers: readonly number[]): Promise<Map<number, BulkRowStatus>> {
    const rows = await this.em.find(
      BulkRow,
      { request: requestId, rowNumber: { $in: [...rowNumbers] } },
      { fields: ['rowNumber', 'status'] },
    )
    return new Map(rows.map((row) => [row.rowNumber, row.status]))
  }

  /** The row, locked until the transaction ends. */
  public lockRow(rowId: string): Promise<BulkRow | null> {
    return this.em.findOne(BulkRow, { id: rowId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  }

  public findRow(rowId: string): Promise<BulkRow | null> {
    return this.em.findOne(BulkRow, { id: rowId }, { populate: ['request'] })
  }

  public async countsByStatus(requestId: string): Promise<Record<BulkRowStatus, number>> {
    const counts: Record<BulkRowStatus, number> = { invalid: 0, pending: 0, queued: 0, sent: 0, failed: 0 }
    const result = await this.em
      .getConnection()
      .execute<
        { status: BulkRowStatus; count: string | number }[]
      >('select "status", count(*) as "count" from "bulk_issuance_rows" where "request_id" = ? group by "status"', [requestId], 'all', this.em.getTransactionContext())
    for (const entry of result) counts[entry.status] = Number(entry.count)
    return counts
  }

  public rowsPage(
    requestId: string,
    query: { pageNumber: number; pageSize: number; status?: BulkRowStatus },
  ): Promise<[BulkRow[], number]> {
    return this.em.findAndCount(
      BulkRow,
      { request: requestId, ...(query.status ? { status: query.status } : {}) },
      { orderBy: { rowNumber: 'asc' }, limit: query.pageSize, offset: pageOffset(query) },
    )
  }

  /** Rows still queued (for resuming after a restart), oldest request first. */
  public async queuedRows(): Promise<QueuedRowRef[]> {
    const rows = await this.em.find(
      BulkRow,
      { status: 'queued' },
      { populate: ['request'], orderBy: { request: { createdAt: 'asc' }, rowNumber: 'asc' } },
    )
    return rows.map((row) => ({
      rowId: row.id,
      requestId: row.request.id,
      orgId: row.request.organization.id,
      attempts: row.attempts,
    }))
  }

  public countQueued(): Promise<number> {
    return this.em.count(BulkRow, { status: 'queued' })
  }

  public async countRemaining(requestId: string): Promise<number> {
    return this.em.count(BulkRow, { request: requestId, status: 'queued' })
  }
}
