import { injectable } from 'inversify'
import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
import { OrgDid } from '../orgs/org-did.entity'
import { CredentialSchema } from './credential-schema.entity'
import { OrgRepository } from '../../infra/db/base.repository'

/** Sort fields of the schema list (spec: `createDateTime` default; docs/decisions.md, Schemas, for the rest). */
export const SCHEMA_SORT_FIELDS = [
  'createDateTime',
  'name',
  'version',
  'schemaLedgerId',
  'publisherDid',
  'issuerId',
] as const
export type SchemaSortField = (typeof SCHEMA_SORT_FIELDS)[number]

export interface SchemaPageQuery {
  pageNumber: number
  pageSize: number
  searchByText?: string
  /** One of SCHEMA_SORT_FIELDS (the query DTO checks it). */
  sortField: string
  sortBy: 'ASC' | 'DESC'
}

/** The entity property each sort field orders by; the ledger id is the URL of the record id, the issuer its DID. */
const SORT_PROPERTY: Record<SchemaSortField, keyof CredentialSchema> = {
  createDateTime: 'createdAt',
  name: 'name',
  version: 'version',
  schemaLedgerId: 'id',
  publisherDid: 'publisherDid',
  issuerId: 'publisherDid',
}

/** Schema queries; organization-scoped ones take `orgId` first. */
@injectable()
export class SchemasRepository extends OrgRepository<CredentialSchema> {
  public constructor(em: EntityManager) {
    super(em, CredentialSchema)
  }

  public async add(orgId: string, fields: Omit<CredentialSchema, 'id' | 'createdAt' | 'updatedAt' | 'organization'>) {
    const schema = this.em.create(CredentialSchema, {
      ...fields,
      organization: this.em.getReference(Organization, orgId),
    })
    await this.em.persist(schema).flush()
    return schema
  }

  public findByNameVersion(orgId: string, name: string, version: string): Promise<CredentialSchema | null> {
    return this.em.findOne(CredentialSchema, { organization: orgId, name, version })
  }

  public findByLedgerId(orgId: string, ledgerId: string): Promise<CredentialSchema | null> {
    return this.em.findOne(CredentialSchema, { organization: orgId, ledgerId })
  }

  /** The organization's INDY schema with this ledger id (the legacy form is the one stored). */
  public findIndyByLedgerId(orgId: string, ledgerId: string): Promise<CredentialSchema | null> {
    return this.em.findOne(CredentialSchema, { organization: orgId, type: 'INDY', ledgerId })
  }

  /** Issuer DIDs of the organization's earliest INDY schemas (at most `limit`), oldest first. */
  public async indyIssuerIds(orgId: string, limit: number): Promise<string[]> {
    const schemas = await this.em.find(
      CredentialSchema,
      { organization: orgId, type: 'INDY', issuerId: { $ne: null } },
      { orderBy: { createdAt: 'asc', id: 'asc' }, limit },
    )
    return schemas.flatMap((schema) => (schema.issuerId ? [schema.issuerId] : []))
  }

  /** Whether the organization published an INDY schema under `issuerId`. */
  public async hasIndyIssuer(orgId: string, issuerId: string): Promise<boolean> {
    return (await this.em.count(CredentialSchema, { organization: orgId, type: 'INDY', issuerId })) > 0
  }

  public findForOrg(orgId: string, schemaId: string): Promise<CredentialSchema | null> {
    return this.em.findOne(CredentialSchema, { organization: orgId, id: schemaId })
  }

  /** A published schema by id, whichever organization owns it (published schemas are public). */
  public findPublished(schemaId: string): Promise<CredentialSchema | null> {
    return this.em.fork().findOne(CredentialSchema, { id: schemaId, type: 'JSON' })
  }

  public list(orgId: string, query: SchemaPageQuery): Promise<[CredentialSchema[], number]> {
    const where: FilterQuery<CredentialSchema> = { organization: orgId }
    if (query.searchByText) where.name = { $ilike: containsPattern(query.searchByText) }
    const direction = query.sortBy === 'ASC' ? 'asc' : 'desc'
    const property = SORT_PROPERTY[query.sortField as SchemaSortField] ?? 'createdAt'
    // The id breaks ties so that pages never overlap.
    const orderBy = (
      property === 'id' ? { id: direction } : { [property]: direction, id: 'asc' }
    ) as QueryOrderMap<CredentialSchema>
    return this.em.findAndCount(CredentialSchema, where, {
      orderBy,
      limit: query.pageSize,
      offset: pageOffset(query),
    })
  }

  /** The organization's primary DID, the publisher of schemas it creates. */
  public async primaryDid(orgId: string): Promise<string | null> {
    const did = await this.em.findOne(OrgDid, { organization: orgId, isPrimaryDid: true })
    return did?.did ?? null
  }

  public countForOrg(orgId: string): Promise<number> {
    return this.em.count(CredentialSchema, { organization: orgId })
  }
}
