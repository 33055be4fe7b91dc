import { injectable } from 'inversify'
import { ForbiddenError, NotFoundError } from '@idplane/common'
import { OrgRoleLookup } from '../../infra/auth/org-role-lookup'
import type { Principal } from '../../infra/auth/token.service'
import type { OrgRoleName } from '../memberships/org-role.entity'
import { ORG_ROLES } from '../memberships/org-roles'
import { PlatformAdmins } from '../memberships/platform-admins'
import type { Ecosystem } from './ecosystem.entity'
import { EcosystemsRepository } from './ecosystems.repository'

/**
 * The ecosystem roles of a caller (spec: Roles; docs/decisions.md, "Ecosystems"). An organization holds
 * ECOSYSTEM_LEAD or ECOSYSTEM_MEMBER in an ecosystem; a person acts for it with an organization role in it
 * (owner or admin to manage, any member role to read; an organization's M2M client acts as its admin).
 * PLATFORM_ADMIN is a person (PlatformAdmins).
 */
@injectable()
export class EcosystemAccess {
  public constructor(
    private readonly roles: OrgRoleLookup,
    private readonly platformAdmins: PlatformAdmins,
    private readonly ecosystems: EcosystemsRepository,
  ) {}

  public isPlatformAdmin(principal: Principal): Promise<boolean> {
    return this.platformAdmins.isPlatformAdmin(principal)
  }

  /** Whether the caller holds one of the roles in the organization. */
  public async holds(principal: Principal, orgId: string, roles: readonly OrgRoleName[]): Promise<boolean> {
    const held = await this.roles.rolesOf(principal, orgId)
    return held.some((role) => (roles as readonly string[]).includes(role))
  }

  /** @throws ForbiddenError unless the caller is an owner or admin of the organization */
  public async assertManagerOf(principal: Principal, orgId: string, what: string): Promise<void> {
    if (!(await this.holds(principal, orgId, ORG_ROLES.ownerAdmin))) {
      throw new ForbiddenError(`Only an owner or admin of the organization can ${what}`)
    }
  }

  /** @throws ForbiddenError unless the caller is an owner or admin of the ecosystem's lead organization */
  public async assertLeadOf(principal: Principal, ecosystem: Ecosystem, what: string): Promise<void> {
    if (!(await this.holds(principal, ecosystem.leadOrganization.id, ORG_ROLES.ownerAdmin))) {
      throw new ForbiddenError(`Only the ecosystem lead (an owner or admin of its lead organization) can ${what}`)
    }
  }

  /**
   * The ecosystem, once the caller is known to lead it.
   * @throws NotFoundError when it does not exist
   * @throws ForbiddenError unless the caller is an owner or admin of its lead organization
   */
  public async ledEcosystem(principal: Principal, ecosystemId: string, what: string): Promise<Ecosystem> {
    const ecosystem = existingEcosystem(await this.ecosystems.findEcosystem(ecosystemId))
    await this.assertLeadOf(principal, ecosystem, what)
    return ecosystem
  }
}

/** @throws NotFoundError when the ecosystem (looked up by id) is absent */
export function existingEcosystem<T>(ecosystem: T | null): T {
  if (!ecosystem) throw new NotFoundError('Ecosystem not found')
  return ecosystem
}
