import { injectable } from 'inversify'
import { type FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { containsPattern } from '../../infra/db/like-pattern'
import { ProofRecord } from './proof.entity'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'

export type ProofSortField = 'createDateTime' | 'updateDateTime' | 'state' | 'connectionId'

export interface ProofPageQuery {
  pageNumber: number
  pageSize: number
  searchByText?: string
  sortField: ProofSortField
  sortBy: 'ASC' | 'DESC'
}

const SORT_COLUMNS: Record<ProofSortField, keyof ProofRecord> = {
  createDateTime: 'createdAt',
  updateDateTime: 'updatedAt',
  state: 'state',
  connectionId: 'connectionId',
}

/** What the platform stores of an agent's proof exchange record. */
export interface ProofFields {
  id: string
  state: string
  role: string
  connectionId: string | null
  threadId: string
  protocolVersion: string
  isVerified: boolean | null
  errorMessage: string | null
  createdAt: Date
  agentUpdatedAt: Date
}

/** Proof records of organizations; every lookup takes the organization first. */
@injectable()
export class ProofsRepository extends OrgRepository<ProofRecord> {
  public constructor(em: EntityManager) {
    super(em, ProofRecord)
  }

  /**
   * The organization's record with this id, locked until the transaction ends; inserted first (in `request-sent`'s
   * place, the given fields) when absent, so that an agent event and the creating request racing for one record
   * both find it. `isNew` tells whether this call inserted it.
   * @returns null when the id belongs to another organization's record
   */
  public async lockOrCreate(
    orgId: string,
    fields: ProofFields,
    extra: { outOfBandId?: string | null; requestType?: string | null },
  ): Promise<LockedRow<ProofRecord> | null> {
    return this.lockOrCreateExchange(
      { id: fields.id, organization: orgId },
      {
        id: fields.id,
        createdAt: fields.createdAt,
        state: fields.state,
        role: fields.role,
        connectionId: fields.connectionId,
        threadId: fields.threadId,
        protocolVersion: fields.protocolVersion,
        isVerified: fields.isVerified,
        errorMessage: fields.errorMessage,
        outOfBandId: extra.outOfBandId ?? null,
        requestType: extra.requestType ?? null,
        agentUpdatedAt: fields.agentUpdatedAt,
      },
    )
  }

  public findForOrg(orgId: string, proofId: string): Promise<ProofRecord | null> {
    return this.em.findOne(ProofRecord, { id: proofId, organization: orgId })
  }

  /** A page of the organization's records; `searchByText` matches state, connection, thread and error. */
  public listForOrg(orgId: string, query: ProofPageQuery): Promise<[ProofRecord[], number]> {
    const where: FilterQuery<ProofRecord> = {}
    if (query.searchByText) {
      const pattern = containsPattern(query.searchByText)
      where.$or = [
        { state: { $ilike: pattern } },
        { connectionId: { $ilike: pattern } },
        { threadId: { $ilike: pattern } },
        { errorMessage: { $ilike: pattern } },
      ]
    }
    const direction = query.sortBy === 'ASC' ? 'asc' : 'desc'
    return this.pageInOrg(orgId, where, query, { [SORT_COLUMNS[query.sortField]]: direction })
  }

  /** Deletes every record of the organization; the number deleted. */
  public deleteAllForOrg(orgId: string): Promise<number> {
    return this.em.nativeDelete(ProofRecord, { organization: orgId })
  }

  public async countByState(orgId: string): Promise<Record<string, number>> {
    const rows = await this.em.execute<{ state: string; count: string | number }[]>(
      'select state, count(*) as count from proof_records where organization_id = ? group by state',
      [orgId],
    )
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]))
  }
}
