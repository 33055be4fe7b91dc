import { injectable } from 'inversify'
import { type FilterQuery, type QueryOrder } from '@mikro-orm/core'
import { NotFoundError } from '@idplane/common'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { containsPattern } from '../../infra/db/like-pattern'
import { CredentialRecord } from './credential.entity'
import { OrgRepository } from '../../infra/db/base.repository'

export interface CredentialRecordPageQuery {
  pageNumber: number
  pageSize: number
  search?: string
  sortField: 'createDateTime' | 'updateDateTime' | 'state' | 'connectionId'
  sortBy: 'ASC' | 'DESC'
}

/** What a new row starts with (the agent's view of the exchange at that moment). */
export interface NewCredentialRecord {
  credentialRecordId: string
  state: string
  agentUpdatedAt: Date
  createdAt?: Date
}

const SORT_COLUMNS: Record<CredentialRecordPageQuery['sortField'], keyof CredentialRecord> = {
  createDateTime: 'createdAt',
  updateDateTime: 'updatedAt',
  state: 'state',
  connectionId: 'connectionId',
}

/** Issuance record queries; every one takes the organization id first. */
@injectable()
export class CredentialsRepository extends OrgRepository<CredentialRecord> {
  public constructor(em: EntityManager) {
    super(em, CredentialRecord)
  }

  /**
   * The organization's record of an agent exchange, locked until the transaction ends; created from `initial` when
   * there is none (`isNew`). The agent's event and the offer route's answer race to create it: the unique key
   * (organization, credentialRecordId) makes one of them win and the other read the winner's row.
   */
  public async lockOrCreate(
    orgId: string,
    initial: NewCredentialRecord,
  ): Promise<{ record: CredentialRecord; isNew: boolean }> {
    const now = new Date()
    const defaults = new CredentialRecord()
    const locked = await this.lockOrCreateRow(
      { organization: orgId, credentialRecordId: initial.credentialRecordId },
      {
        id: defaults.id,
        organization: orgId,
        credentialRecordId: initial.credentialRecordId,
        state: initial.state,
        role: defaults.role,
        credentialType: defaults.credentialType,
        agentUpdatedAt: initial.agentUpdatedAt,
        createdAt: initial.createdAt ?? now,
        updatedAt: now,
      },
    )
    // The where is the row's unique key: the row inserted or the one that won the race is always found.
    if (!locked) throw new NotFoundError('Credential record not found')
    return { record: locked.entity, isNew: locked.isNew }
  }

  public findForOrg(orgId: string, credentialRecordId: string): Promise<CredentialRecord | null> {
    return this.em.findOne(CredentialRecord, { organization: orgId, credentialRecordId })
  }

  /** A page of the organization's records; `search` matches state, ids, e-mail, schema and credential types. */
  public listForOrg(orgId: string, query: CredentialRecordPageQuery): Promise<[CredentialRecord[], number]> {
    const where: FilterQuery<CredentialRecord> = { organization: orgId }
    if (query.search) {
      const pattern = containsPattern(query.search)
      where.$or = [
        { state: { $ilike: pattern } },
        { credentialRecordId: { $ilike: pattern } },
        { connectionId: { $ilike: pattern } },
        { threadId: { $ilike: pattern } },
        { emailId: { $ilike: pattern } },
        { schemaId: { $ilike: pattern } },
        { errorMessage: { $ilike: pattern } },
      ]
    }
    const direction = query.sortBy.toLowerCase() as `${QueryOrder.asc | QueryOrder.desc}`
    return this.em.findAndCount(CredentialRecord, where, {
      orderBy: { [SORT_COLUMNS[query.sortField]]: direction, id: 'asc' },
      limit: query.pageSize,
      offset: pageOffset(query),
    })
  }

  /** Deletes every record of the organization; returns the agent record ids they named. */
  public async deleteAllForOrg(orgId: string): Promise<string[]> {
    const rows = await this.em.find(CredentialRecord, { organization: orgId }, { fields: ['credentialRecordId'] })
    await this.em.nativeDelete(CredentialRecord, { organization: orgId })
    return rows.map((row) => row.credentialRecordId)
  }
}
