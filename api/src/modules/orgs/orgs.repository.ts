import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { LockMode, type FilterQuery } from '@mikro-orm/core'
import { Organization, type OrganizationView } from './organization.entity'
import type { OrgRoleName } from '../memberships/org-role.entity'
import { containsPattern } from '../../infra/db/like-pattern'
import { BaseRepository, type PageRequest } from '../../infra/db/base.repository'
import { PreparedStatement } from '../../infra/db/prepared-statement'

export type NewOrganization = Pick<
  Organization,
  | 'name'
  | 'slug'
  | 'description'
  | 'logoUrl'
  | 'website'
  | 'notificationWebhook'
  | 'registrationNumber'
  | 'countryId'
  | 'stateId'
  | 'cityId'
  | 'createdBy'
>

interface OrganizationRow {
  id: string
  name: string
  slug: string
  description: string
  logo_url: string
  website: string | null
  registration_number: string | null
  notification_webhook: string | null
  is_public: boolean
  country_id: number | null
  state_id: number | null
  city_id: number | null
  /** MikroORM's driver keeps timestamps as PostgreSQL's text (`2026-11-30 01:33:00.123+00`); `new Date` reads it. */
  created_at: Date | string
  updated_at: Date | string
}

/**
 * Queries of organizations. Organization-scoped queries take the
 * organization id first, so a cross-tenant read cannot be written by accident (STYLE.md, Immich habit).
 */
@injectable()
export class OrgsRepository extends BaseRepository<Organization> {
  public constructor(em: EntityManager) {
    super(em, Organization)
  }

  /**
   * How many existing organizations the user created, holding a per-user advisory lock until the transaction
   * ends, so concurrent creations by one user cannot pass the quota together. Call inside a transaction.
   */
  public async countCreatedByLocked(userId: string): Promise<number> {
    await this.em.execute('select pg_advisory_xact_lock(hashtext(?))', [`orgs-created-by:${userId}`])
    return this.em.count(Organization, { createdBy: userId })
  }

  /**
   * The organization lock: holds the organization row until the transaction ends, so that membership changes
   * of one organization (invitations, role replacements, the primary DID) happen one at a time; null when it does
   * not exist.
   */
  public lock(orgId: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { id: orgId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  }

  public async findById(orgId: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { id: orgId })
  }

  /**
   * The organization as read-only data, for `GET /v1/orgs/:orgId`; null when there is none. One prepared statement
   * and no entity: the read is the API's most frequent, and the query building and hydration of `findById` were
   * about a third of its CPU (docs/benchmarks.md, "API authenticated read"); planning the statement anew each time
   * took the server three times as long as running it. Outside any transaction (prepared-statement.ts).
   */
  public async viewById(orgId: string): Promise<OrganizationView | null> {
    const { rows } = await this.runPrepared<OrganizationRow>(VIEW_BY_ID, [orgId])
    const row = rows[0]
    if (!row) return null
    return {
      id: row.id,
      name: row.name,
      slug: row.slug,
      description: row.description,
      logoUrl: row.logo_url,
      website: row.website,
      registrationNumber: row.registration_number,
      notificationWebhook: row.notification_webhook,
      isPublic: row.is_public,
      countryId: row.country_id,
      stateId: row.state_id,
      cityId: row.city_id,
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    }
  }

  /** The organization's name, read on its own (outside the caller's unit of work); null when there is none. */
  public async nameOf(orgId: string): Promise<string | null> {
    const organization = await this.em.fork().findOne(Organization, { id: orgId }, { fields: ['name'] })
    return organization?.name ?? null
  }

  /** Slugs equal to `base` or `base-<anything>`, for picking the next free one. */
  public async slugsStartingWith(base: string): Promise<string[]> {
    const rows = await this.em.find(
      Organization,
      { $or: [{ slug: base }, { slug: { $like: `${base}-%` } }] },
      { fields: ['slug'] },
    )
    return rows.map((row) => row.slug)
  }

  /** The organizations a user belongs to, optionally only those where the user holds `role`. */
  public async findForMember(
    userId: string,
    filter: { search?: string; role?: OrgRoleName },
    page: PageRequest,
  ): Promise<[Organization[], number]> {
    const where: FilterQuery<Organization> = {
      userOrgRoles: { user: userId, ...(filter.role ? { orgRole: { name: filter.role } } : {}) },
      ...(filter.search ? { name: { $ilike: containsPattern(filter.search) } } : {}),
    }
    return this.findPage(where, page, { createdAt: 'desc' })
  }

  public async findPublic(search: string | undefined, page: PageRequest): Promise<[Organization[], number]> {
    const where: FilterQuery<Organization> = {
      isPublic: true,
      ...(search ? { name: { $ilike: containsPattern(search) } } : {}),
    }
    return this.findPage(where, page, { name: 'asc' })
  }

  public async findPublicBySlug(slug: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { slug, isPublic: true })
  }

  /** Inserts a new organization; a slug taken meanwhile fails on the unique index. */
  public async add(data: NewOrganization): Promise<Organization> {
    const org = this.em.create(Organization, data)
    await this.em.flush()
    return org
  }

  /** Writes the changes made to loaded organizations. */
  public async save(): Promise<void> {
    await this.em.flush()
  }

  /** Deletes the organization row (the rest cascades); the number of rows deleted. */
  public async delete(orgId: string): Promise<number> {
    return this.em.nativeDelete(Organization, { id: orgId })
  }
}

/** viewById's statement. */
const VIEW_BY_ID = new PreparedStatement(
  'organizations_view_by_id',
  `select id, name, slug, description, logo_url, website, registration_number, notification_webhook, is_public,
     country_id, state_id, city_id, created_at, updated_at from organizations where id = ?::uuid`,
)
