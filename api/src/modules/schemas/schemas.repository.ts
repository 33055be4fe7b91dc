import { injectable } from 'inversify'
import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
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

  public countForOrg(orgId: string): Promise<number> {
    return this.em.count(CredentialSchema, { organization: orgId })
  }

  /** A JSON schema of the organization (a bulk issuance's W3C template). */
  public findJsonSchema(orgId: string, schemaId: string): Promise<CredentialSchema | null> {
    return this.em.findOne(CredentialSchema, { id: schemaId, organization: orgId, type: 'JSON' })
  }

  /** A page of the organization's JSON schemas, newest first (the id breaks ties, so pages never overlap). */
  public listJsonSchemas(
    orgId: string,
    page: { pageNumber: number; pageSize: number },
  ): Promise<[CredentialSchema[], number]> {
    return this.pageInOrg(orgId, { type: 'JSON' }, page, { createdAt: 'desc' })
  }

  /**
   * The platform's INDY schema records of these ledger ids (their attribute definitions: data types, display names,
   * required flags), the organization's own first: a definition may be on another organization's schema.
   */
  public async indySchemasByLedgerId(
    orgId: string,
    ledgerIds: readonly string[],
  ): Promise<Map<string, CredentialSchema>> {
    const found = new Map<string, CredentialSchema>()
    if (ledgerIds.length === 0) return found
    const schemas = await this.em.find(
      CredentialSchema,
      { type: 'INDY', ledgerId: { $in: [...new Set(ledgerIds)] } },
      { orderBy: { createdAt: 'asc' } },
    )
    for (const schema of schemas) {
      if (!schema.ledgerId) continue
      const known = found.get(schema.ledgerId)
      if (!known || (known.organization.id !== orgId && schema.organization.id === orgId))
        found.set(schema.ledgerId, schema)
    }
    return found
  }
}
