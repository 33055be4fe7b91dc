import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { FilterQuery } from '@mikro-orm/core'
import { Organization } from './organization.entity'
import { UserOrgRole } from '../roles/user-org-role.entity'
import { User } from '../users/user.entity'
import type { OrgRole, OrgRoleName } from '../roles/org-role.entity'
import type { INVITATION_STATUSES } from '../invitations/invitation.entity'
import { containsPattern } from './like-pattern'

export interface PageWindow {
  limit: number
  offset: number
}

export interface OrganizationCounts {
  members: number
  dids: number
  clientCredentials: number
  invitations: Record<(typeof INVITATION_STATUSES)[number], number>
}

/**
 * Queries of organizations and their members that deserve a name. Organization-scoped queries take the
 * organization id first, so a cross-tenant read cannot be written by accident (STYLE.md, Immich habit).
 */
@injectable()
export class OrgsRepository {
  public constructor(private readonly em: EntityManager) {}

  public async findById(orgId: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { id: orgId })
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
    window: PageWindow,
  ): Promise<[Organization[], number]> {
    const where: FilterQuery<Organization> = {
      userOrgRoles: { user: userId, ...(filter.role ? { orgRole: { name: filter.role } } : {}) },
      ...(filter.search ? { name: { $ilike: containsPattern(filter.search) } } : {}),
    }
    return this.em.findAndCount(Organization, where, { ...window, orderBy: { createdAt: 'desc', id: 'asc' } })
  }

  public async findPublic(search: string | undefined, window: PageWindow): Promise<[Organization[], number]> {
    const where: FilterQuery<Organization> = {
      isPublic: true,
      ...(search ? { name: { $ilike: containsPattern(search) } } : {}),
    }
    return this.em.findAndCount(Organization, where, { ...window, orderBy: { name: 'asc', id: 'asc' } })
  }

  public async findPublicBySlug(slug: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { slug, isPublic: true })
  }

  /** Roles a user holds in each of the given organizations. */
  public async rolesOfUserIn(userId: string, orgIds: string[]): Promise<Map<string, OrgRole[]>> {
    const rows = await this.em.find(
      UserOrgRole,
      { user: userId, organization: { $in: orgIds } },
      { populate: ['orgRole'], orderBy: { orgRole: { name: 'asc' } } },
    )
    return groupRoles(rows, (row) => row.organization.id)
  }

  /** Members of an organization (users holding any role in it), searched by name or e-mail. */
  public async findMembers(orgId: string, search: string | undefined, window: PageWindow): Promise<[User[], number]> {
    const members = this.em.createQueryBuilder(UserOrgRole, 'm').select('m.user').where({ organization: orgId })
    const pattern = search ? containsPattern(search) : undefined
    const qb = this.em
      .createQueryBuilder(User, 'u')
      .where({ id: { $in: members } })
      .orderBy({ createdAt: 'asc', id: 'asc' })
      .limit(window.limit)
      .offset(window.offset)
    if (pattern) {
      qb.andWhere({
        $or: [{ firstName: { $ilike: pattern } }, { lastName: { $ilike: pattern } }, { email: { $ilike: pattern } }],
      })
    }
    return qb.getResultAndCount()
  }

  /** Roles each of the given users holds in one organization. */
  public async rolesOfMembers(orgId: string, userIds: string[]): Promise<Map<string, OrgRole[]>> {
    const rows = await this.em.find(
      UserOrgRole,
      { organization: orgId, user: { $in: userIds } },
      { populate: ['orgRole'], orderBy: { orgRole: { name: 'asc' } } },
    )
    return groupRoles(rows, (row) => row.user.id)
  }

  /** Counts of the records that reference an organization today (members, invitations, DIDs, credentials). */
  public async countReferences(orgId: string): Promise<OrganizationCounts> {
    const connection = this.em.getConnection()
    const [totals] = await connection.execute<{ members: number; dids: number; client_credentials: number }[]>(
      `select
         (select count(distinct user_id)::int from user_org_roles where organization_id = ?) as members,
         (select count(*)::int from org_dids where organization_id = ?) as dids,
         (select count(*)::int from client_credentials where organization_id = ?) as client_credentials`,
      [orgId, orgId, orgId],
    )
    const byStatus = await connection.execute<{ status: string; count: number }[]>(
      'select status, count(*)::int as count from org_invitations where organization_id = ? group by status',
      [orgId],
    )
    const invitations = { pending: 0, accepted: 0, rejected: 0 }
    for (const row of byStatus) {
      if (row.status === 'pending' || row.status === 'accepted' || row.status === 'rejected') {
        invitations[row.status] = Number(row.count)
      }
    }
    return {
      members: Number(totals?.members ?? 0),
      dids: Number(totals?.dids ?? 0),
      clientCredentials: Number(totals?.client_credentials ?? 0),
      invitations,
    }
  }
}

function groupRoles(rows: UserOrgRole[], keyOf: (row: UserOrgRole) => string): Map<string, OrgRole[]> {
  const grouped = new Map<string, OrgRole[]>()
  for (const row of rows) {
    const key = keyOf(row)
    grouped.set(key, [...(grouped.get(key) ?? []), row.orgRole])
  }
  return grouped
}
