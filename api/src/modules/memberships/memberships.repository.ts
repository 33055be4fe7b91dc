import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgRole, type OrgRoleName } from './org-role.entity'
import { UserOrgRole } from './user-org-role.entity'
import { User } from '../users/user.entity'
import { containsPattern } from '../../infra/db/like-pattern'
import { OrgRepository, type PageRequest } from '../../infra/db/base.repository'
import { pageOffset } from '../../infra/http/pagination'
import { RecentReads, SHARED_ROW_REUSE_MS } from '../../infra/db/recent-reads'

/** Users' roles remembered for the authorization check (a bound on memory, not an expected count). */
const ROLE_SETS_REMEMBERED = 10_000

/**
 * Role definitions and memberships (one row per user, organization and role). Organization-scoped queries take
 * the organization id first. Inside `transactional()` every query here (and other repositories') joins the
 * transaction: the global em resolves to the transaction's fork.
 */
@injectable()
export class MembershipsRepository extends OrgRepository<UserOrgRole> {
  /** roleNamesOf's answers by organization and user, for recentRoleNamesOf. */
  private readonly recentRoles = new RecentReads<string, OrgRoleName[]>(SHARED_ROW_REUSE_MS, ROLE_SETS_REMEMBERED, () =>
    this.em.isInTransaction(),
  )

  public constructor(em: EntityManager) {
    super(em, UserOrgRole)
  }

  public listDefinitions(): Promise<OrgRole[]> {
    return this.em.find(OrgRole, {}, { orderBy: { name: 'asc' } })
  }

  public definitionByName(name: OrgRoleName): Promise<OrgRole> {
    return this.em.findOneOrFail(OrgRole, { name })
  }

  public definitionsWithIds(ids: string[]): Promise<OrgRole[]> {
    return this.em.find(OrgRole, { id: { $in: ids } })
  }

  /**
   * Names of the roles a user holds in an organization (none when not a member). One query, no entities loaded:
   * the authorization checker runs it on every organization route, so it is plain SQL rather than a query builder
   * (about 5 % of an authenticated read's CPU, docs/benchmarks.md).
   */
  public async roleNamesOf(orgId: string, userId: string): Promise<OrgRoleName[]> {
    const rows = await this.em.execute<{ name: OrgRoleName }[]>(
      'select r.name from user_org_roles m join org_roles r on r.id = m.org_role_id where m.organization_id = ? and m.user_id = ?',
      [orgId, userId],
    )
    return rows.map((row) => row.name)
  }

  /**
   * roleNamesOf as read at most SHARED_ROW_REUSE_MS ago, for the authorization checks (every organization route
   * runs one): a change made on another replica applies here within that time, one made here at once. Changes of
   * memberships read roleNamesOf itself.
   */
  public recentRoleNamesOf(orgId: string, userId: string): Promise<OrgRoleName[]> {
    return this.recentRoles
      .get(`${orgId}/${userId}`, () => this.roleNamesOf(orgId, userId))
      .then((names) => names ?? [])
  }

  /**
   * recentRoleNamesOf reads the user's roles again. The writes here call it; a caller whose transaction holds such a
   * write calls it again after the commit, so a check that ran in between does not keep the roles replaced.
   */
  public forgetRecentRoles(orgId: string, userId: string): void {
    this.recentRoles.forget(`${orgId}/${userId}`)
  }

  /** recentRoleNamesOf reads every user's roles in the organization again (it was deleted, memberships and all). */
  public forgetRecentRolesIn(orgId: string): void {
    this.recentRoles.forgetWhere((key) => key.startsWith(`${orgId}/`))
  }

  /** Adds memberships for roles the user does not hold yet; flushes. */
  public async add(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    for (const role of roles) {
      this.em.create(UserOrgRole, {
        organization: orgId,
        user: this.em.getReference(User, userId),
        orgRole: role,
      })
    }
    await this.em.flush()
    this.forgetRecentRoles(orgId, userId)
  }

  /** Replaces all of a user's roles in an organization in one transaction. */
  public async replace(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    await this.em.transactional(async (em) => {
      await em.nativeDelete(UserOrgRole, { organization: orgId, user: userId })
      for (const role of roles) {
        em.create(UserOrgRole, {
          organization: orgId,
          user: em.getReference(User, userId),
          orgRole: role,
        })
      }
    })
    this.forgetRecentRoles(orgId, userId)
  }

  public async isMember(orgId: string, userId: string): Promise<boolean> {
    return (await this.em.count(UserOrgRole, { organization: orgId, user: userId })) > 0
  }

  /** How many users hold the owner role in the organization. */
  public countOwners(orgId: string): Promise<number> {
    return this.em.count(UserOrgRole, { organization: orgId, orgRole: { name: 'owner' } })
  }

  /** Whether the user holds the role in at least one organization (the platform-wide roles). */
  public async holdsRoleInAnyOrganization(userId: string, role: OrgRoleName): Promise<boolean> {
    return (await this.em.count(UserOrgRole, { user: userId, orgRole: { name: role } })) > 0
  }

  /** The users holding a role in the organization (each once), for example its owners. */
  public async holdersOf(orgId: string, role: OrgRoleName): Promise<User[]> {
    const rows = await this.em.find(
      UserOrgRole,
      { organization: orgId, orgRole: { name: role } },
      { populate: ['user'], orderBy: { user: { email: 'asc' } } },
    )
    return [...new Map(rows.map((row) => [row.user.id, row.user])).values()]
  }

  /** Ids of the organizations in which the user holds at least one of the roles. */
  public async organizationsWhereUserHolds(userId: string, roles: readonly OrgRoleName[]): Promise<string[]> {
    const rows = await this.em.find(
      UserOrgRole,
      { user: userId, orgRole: { name: { $in: [...roles] } } },
      { fields: ['organization'] },
    )
    return [...new Set(rows.map((row) => row.organization.id))]
  }

  /** How many distinct users hold a role in the organization. */
  public async countMembers(orgId: string): Promise<number> {
    const row = await this.em
      .createQueryBuilder(UserOrgRole)
      .count('user', true)
      .where({ organization: orgId })
      .execute<{ count: number | string }>('get')
    return Number(row?.count ?? 0)
  }

  /** Those of `emails` that belong to a member of the organization (stored lower-cased, as users are). */
  public async memberEmails(orgId: string, emails: string[]): Promise<string[]> {
    if (emails.length === 0) return []
    const rows = await this.em.find(
      UserOrgRole,
      { organization: orgId, user: { email: { $in: emails } } },
      { populate: ['user'] },
    )
    return [...new Set(rows.map((row) => row.user.email.toLowerCase()))]
  }

  /** Members of an organization (users holding any role in it), searched by name or e-mail. */
  public async findMembers(orgId: string, search: string | undefined, page: PageRequest): Promise<[User[], number]> {
    const members = this.em.createQueryBuilder(UserOrgRole, 'm').select('m.user').where({ organization: orgId })
    const pattern = search ? containsPattern(search) : undefined
    const qb = this.em
      .createQueryBuilder(User, 'u')
      .where({ id: { $in: members } })
      .orderBy({ createdAt: 'asc', id: 'asc' })
      .limit(page.pageSize)
      .offset(pageOffset(page))
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

  /** Roles a user holds in each of the given organizations (the user's side: user id first). */
  public async rolesOfUserIn(userId: string, orgIds: string[]): Promise<Map<string, OrgRole[]>> {
    const rows = await this.em.find(
      UserOrgRole,
      { user: userId, organization: { $in: orgIds } },
      { populate: ['orgRole'], orderBy: { orgRole: { name: 'asc' } } },
    )
    return groupRoles(rows, (row) => row.organization.id)
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
