import { injectable } from 'inversify'
import { LockMode, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
import { CredentialDefinition } from './credential-definition.entity'
import { RECREATABLE_CRED_DEF_STATUS } from './credential-definition.states'
import { OrgRepository } from '../../infra/db/base.repository'

/** Sort fields of the credential-definition lists (spec: `id` default for the list, `createDateTime` by schema). */
export const CRED_DEF_SORT_FIELDS = ['id', 'createDateTime', 'tag', 'schemaLedgerId', 'credentialDefinitionId'] as const
export type CredDefSortField = (typeof CRED_DEF_SORT_FIELDS)[number]

const SORT_PROPERTY: Record<CredDefSortField, keyof CredentialDefinition> = {
  id: 'id',
  createDateTime: 'createdAt',
  tag: 'tag',
  schemaLedgerId: 'schemaLedgerId',
  credentialDefinitionId: 'credentialDefinitionId',
}

export interface CredDefPageQuery {
  pageNumber: number
  pageSize: number
  searchByText?: string
  sortField: string
  sortBy: 'ASC' | 'DESC'
  /** Only revocable definitions when true; every one when false or absent. */
  onlyRevocable?: boolean
  schemaLedgerId?: string
}

@injectable()
export class CredDefsRepository extends OrgRepository<CredentialDefinition> {
  public constructor(em: EntityManager) {
    super(em, CredentialDefinition)
  }

  public async add(
    orgId: string,
    fields: Pick<
      CredentialDefinition,
      | 'tag'
      | 'schemaLedgerId'
      | 'schemaDidIndyId'
      | 'credentialDefinitionId'
      | 'credentialDefinitionDidIndyId'
      | 'revocable'
      | 'publisherDid'
      | 'createdBy'
    >,
  ): Promise<CredentialDefinition> {
    const definition = this.em.create(CredentialDefinition, {
      ...fields,
      organization: this.em.getReference(Organization, orgId),
    })
    await this.em.persist(definition).flush()
    return definition
  }

  /** Whether the organization has a definition of the schema (legacy id) and tag that blocks creating another. */
  public async hasLive(orgId: string, schemaLedgerId: string, tag: string): Promise<boolean> {
    const live = await this.em.count(CredentialDefinition, {
      organization: orgId,
      schemaLedgerId,
      tag,
      status: { $ne: RECREATABLE_CRED_DEF_STATUS },
    })
    return live > 0
  }

  /** In a transaction: the record, locked against the job and other requests. */
  public lockBySchemaTag(orgId: string, schemaLedgerId: string, tag: string): Promise<CredentialDefinition | null> {
    return this.em.findOne(
      CredentialDefinition,
      { organization: orgId, schemaLedgerId, tag },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    )
  }

  public lock(id: string): Promise<CredentialDefinition | null> {
    return this.em.findOne(CredentialDefinition, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  }

  public findById(id: string): Promise<CredentialDefinition | null> {
    return this.em.findOne(CredentialDefinition, { id })
  }

  /** By record id or legacy ledger id; `refresh` reads the row again (a job may have changed it since). */
  public findForOrg(orgId: string, where: { id: string } | { credentialDefinitionId: string }, refresh = false) {
    return this.em.findOne(CredentialDefinition, { organization: orgId, ...where }, { refresh })
  }

  /** Every definition whose job a stopped process may have left unfinished. */
  public creating(): Promise<CredentialDefinition[]> {
    return this.em.find(CredentialDefinition, { status: 'creating' }, { orderBy: { createdAt: 'asc' } })
  }

  public list(orgId: string, query: CredDefPageQuery): Promise<[CredentialDefinition[], number]> {
    const where: FilterQuery<CredentialDefinition> = { organization: orgId }
    if (query.onlyRevocable) where.revocable = true
    if (query.schemaLedgerId !== undefined) where.schemaLedgerId = query.schemaLedgerId
    if (query.searchByText) {
      const pattern = containsPattern(query.searchByText)
      where.$or = [{ tag: { $ilike: pattern } }, { schemaLedgerId: { $ilike: pattern } }]
    }
    const direction = query.sortBy === 'ASC' ? 'asc' : 'desc'
    const property = SORT_PROPERTY[query.sortField as CredDefSortField] ?? 'id'
    // The id breaks ties so that pages never overlap.
    const orderBy = (
      property === 'id' ? { id: direction } : { [property]: direction, id: 'asc' }
    ) as QueryOrderMap<CredentialDefinition>
    return this.em.findAndCount(CredentialDefinition, where, {
      orderBy,
      limit: query.pageSize,
      offset: pageOffset(query),
    })
  }

  /**
   * One of the organization's credential definitions once registered on the ledger (a bulk issuance's INDY
   * template), by record id or by legacy ledger id.
   */
  public findCreatedCredDef(
    orgId: string,
    where: { id: string } | { credentialDefinitionId: string },
  ): Promise<CredentialDefinition | null> {
    return this.em.findOne(CredentialDefinition, { ...where, organization: orgId, status: 'created' })
  }

  /** A page of those definitions, newest first (the id breaks ties, so pages never overlap). */
  public listCreatedCredDefs(
    orgId: string,
    page: { pageNumber: number; pageSize: number },
  ): Promise<[CredentialDefinition[], number]> {
    return this.pageInOrg(orgId, { status: 'created' }, page, { createdAt: 'desc' })
  }
}
