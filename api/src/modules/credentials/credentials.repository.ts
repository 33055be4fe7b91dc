import { injectable } from 'inversify'
import { LockMode, type FilterQuery, type QueryOrder } from '@mikro-orm/core'
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

  /** @param refresh read the row again rather than the context's copy (after a statement changed it) */
  public findForOrg(orgId: string, credentialRecordId: string, refresh = false): Promise<CredentialRecord | null> {
    return this.em.findOne(CredentialRecord, { organization: orgId, credentialRecordId }, { refresh })
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

  /**
   * Records the revocation of one revocable record as asked for (`pending`), in one statement that only a record
   * without a revocation takes: true for the caller that recorded it.
   */
  public async markRevocationPending(orgId: string, credentialRecordId: string): Promise<boolean> {
    const changed = await this.em.nativeUpdate(
      CredentialRecord,
      { organization: orgId, credentialRecordId, revocationStatus: null, revocationIndex: { $ne: null } },
      { revocationStatus: 'pending', revocationRequestedAt: new Date(), updatedAt: new Date() },
    )
    return changed === 1
  }

  /** The organization's revocations asked for and not yet published, by registry and index. */
  public pendingRevocations(orgId: string): Promise<CredentialRecord[]> {
    return this.em.find(
      CredentialRecord,
      { organization: orgId, revocationStatus: 'pending' },
      { orderBy: { revocationRegistryId: 'asc', revocationIndex: 'asc' } },
    )
  }

  /**
   * Marks the pending revocations of these indices of the registry published, locked until the transaction ends
   * (call inside `transactional()`); records already marked are left out.
   * @returns the records marked now
   */
  public async markRevoked(
    orgId: string,
    revocationRegistryId: string,
    indices: number[],
  ): Promise<CredentialRecord[]> {
    const rows = await this.em.find(
      CredentialRecord,
      { organization: orgId, revocationRegistryId, revocationIndex: { $in: indices }, revocationStatus: 'pending' },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    )
    const now = new Date()
    for (const row of rows) {
      row.revocationStatus = 'revoked'
      row.revokedAt = now
    }
    await this.em.flush()
    return rows
  }

  /** Deletes every record of the organization; returns the agent record ids they named. */
  public async deleteAllForOrg(orgId: string): Promise<string[]> {
    const rows = await this.em.find(CredentialRecord, { organization: orgId }, { fields: ['credentialRecordId'] })
    await this.em.nativeDelete(CredentialRecord, { organization: orgId })
    return rows.map((row) => row.credentialRecordId)
  }
}
