import { injectable } from 'inversify'
import { LockMode, type FilterQuery, type QueryOrder } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { containsPattern } from '../../infra/db/like-pattern'
import { CredentialRecord, OPENID4VC_RECORD_TYPES } from './credential.entity'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'
import { definedOnly } from '../../infra/records/exchange-records'

export interface CredentialRecordPageQuery {
  pageNumber: number
  pageSize: number
  search?: string
  sortField: 'createDateTime' | 'updateDateTime' | 'state' | 'connectionId'
  sortBy: 'ASC' | 'DESC'
}

/**
 * What a new row starts with: the agent's view of the exchange at that moment, as the record's first report writes
 * it (CredentialRecords), so that the insert is the whole write and no update follows it.
 */
export type NewCredentialRecord = Pick<CredentialRecord, 'credentialRecordId' | 'state' | 'agentUpdatedAt'> &
  Partial<Omit<CredentialRecord, 'id' | 'organization' | 'updatedAt'>>

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
  public async lockOrCreate(orgId: string, initial: NewCredentialRecord): Promise<LockedRow<CredentialRecord>> {
    const defaults = new CredentialRecord()
    const { credentialRecordId, ...columns } = initial
    return this.lockOrCreateExchange(
      { organization: orgId, credentialRecordId },
      { role: defaults.role, credentialType: defaults.credentialType, ...definedOnly(columns) },
      { missing: 'Credential record not found' },
    )
  }

  /** @param refresh read the row again rather than the context's copy (after a statement changed it) */
  public findForOrg(orgId: string, credentialRecordId: string, refresh = false): Promise<CredentialRecord | null> {
    return this.em.findOne(CredentialRecord, { organization: orgId, credentialRecordId }, { refresh })
  }

  /** A page of the organization's records; `search` matches state, ids, e-mail, schema and credential types. */
  public listForOrg(orgId: string, query: CredentialRecordPageQuery): Promise<[CredentialRecord[], number]> {
    const where: FilterQuery<CredentialRecord> = {}
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
    return this.pageInOrg(orgId, where, query, { [SORT_COLUMNS[query.sortField]]: direction })
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

  /**
   * Records a status change of a JSON-LD record as asked for, in one statement that only a record still in the state
   * `from` takes: true for the caller that recorded it.
   */
  public async requestStatusChange(
    orgId: string,
    credentialRecordId: string,
    from: Pick<CredentialRecord, 'revocationStatus' | 'suspensionStatus'>,
    to: Pick<CredentialRecord, 'revocationStatus' | 'suspensionStatus'>,
  ): Promise<boolean> {
    const changed = await this.em.nativeUpdate(
      CredentialRecord,
      {
        organization: orgId,
        credentialRecordId,
        statusListId: { $ne: null },
        revocationStatus: from.revocationStatus ?? null,
        suspensionStatus: from.suspensionStatus ?? null,
      },
      {
        ...to,
        ...(to.revocationStatus === 'pending' ? { revocationRequestedAt: new Date() } : {}),
        updatedAt: new Date(),
      },
    )
    return changed === 1
  }

  /** The organization's JSON-LD status changes asked for and not yet published. */
  public pendingStatusChanges(orgId: string): Promise<CredentialRecord[]> {
    return this.em.find(
      CredentialRecord,
      {
        organization: orgId,
        statusListId: { $ne: null },
        $or: [{ revocationStatus: 'pending' }, { suspensionStatus: { $in: ['pending', 'reinstating'] } }],
      },
      { orderBy: { statusListId: 'asc', statusListIndex: 'asc' } },
    )
  }

  /**
   * Marks the pending changes of these indices of the status list published (revoked, suspended or reinstated),
   * locked until the transaction ends (call inside `transactional()`).
   * @returns the records marked now, each with what happened to it
   */
  public async markStatusPublished(
    orgId: string,
    statusListId: string,
    indices: number[],
  ): Promise<{ record: CredentialRecord; change: 'revoked' | 'suspended' | 'reinstated' }[]> {
    const rows = await this.em.find(
      CredentialRecord,
      {
        organization: orgId,
        statusListId,
        statusListIndex: { $in: indices },
        $or: [{ revocationStatus: 'pending' }, { suspensionStatus: { $in: ['pending', 'reinstating'] } }],
      },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    )
    const now = new Date()
    const marked: { record: CredentialRecord; change: 'revoked' | 'suspended' | 'reinstated' }[] = []
    for (const row of rows) {
      if (row.revocationStatus === 'pending') {
        row.revocationStatus = 'revoked'
        row.revokedAt = now
        marked.push({ record: row, change: 'revoked' })
      } else if (row.suspensionStatus === 'pending') {
        row.suspensionStatus = 'suspended'
        row.suspendedAt = now
        marked.push({ record: row, change: 'suspended' })
      } else {
        row.suspensionStatus = null
        row.suspendedAt = null
        marked.push({ record: row, change: 'reinstated' })
      }
    }
    await this.em.flush()
    return marked
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

  /**
   * Records an OpenID4VC offer of an SD-JWT VC or an mdoc with a Token Status List entry, so the revoke route finds
   * it by the offer (issuance session) id; the agent keeps the session itself (docs/decisions.md, "Token Status List").
   */
  public async addOpenId4VcOffer(
    orgId: string,
    row: Pick<
      CredentialRecord,
      | 'credentialRecordId'
      | 'credentialType'
      | 'state'
      | 'statusListId'
      | 'statusListIndex'
      | 'statusListCopyIndices'
      | 'statusPurpose'
      | 'agentUpdatedAt'
    >,
  ): Promise<void> {
    const em = this.em.fork()
    em.create(CredentialRecord, {
      ...row,
      organization: orgId,
      role: 'issuer',
      protocolVersion: 'oid4vci',
    })
    await em.flush()
  }

  /** Sets an OpenID4VC offer's state: its issuance session's, from an agent event or as the agent reports it now. */
  public async setOpenId4VcOfferState(orgId: string, credentialRecordId: string, state: string): Promise<void> {
    await this.em.nativeUpdate(
      CredentialRecord,
      { organization: orgId, credentialRecordId, credentialType: { $in: [...OPENID4VC_RECORD_TYPES] } },
      { state, updatedAt: new Date() },
    )
  }

  /** Deletes every record of the organization; returns the agent record ids they named. */
  public async deleteAllForOrg(orgId: string): Promise<string[]> {
    const rows = await this.em.find(CredentialRecord, { organization: orgId }, { fields: ['credentialRecordId'] })
    await this.em.nativeDelete(CredentialRecord, { organization: orgId })
    return rows.map((row) => row.credentialRecordId)
  }
}
