import { inject, injectable } from 'inversify'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import type { Principal } from '../../infra/auth/token.service'
import { TOKENS } from '../../infra/tokens'
import { MembershipsRepository } from './memberships.repository'
import { platformAdminsConfig } from './platform-admins.config'

/**
 * Who is a platform admin (spec: Roles, `PLATFORM_ADMIN` is platform-wide), decided in one place
 * (docs/decisions.md, "Platform admins"): a user whose verified sign-in address is listed in
 * PLATFORM_ADMIN_EMAILS (the first platform admin), or who holds the `platform_admin` role in any organization
 * (granted by another platform admin). An organization's M2M client never is one.
 */
@injectable()
export class PlatformAdmins {
  private readonly configured: ReadonlySet<string>

  public constructor(
    private readonly memberships: MembershipsRepository,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.configured = new Set(sectionOf(config, platformAdminsConfig).emails)
  }

  public async isPlatformAdmin(principal: Principal): Promise<boolean> {
    if (principal.kind !== 'user') return false
    if (this.configured.has(principal.email.trim().toLowerCase())) return true
    return this.memberships.holdsRoleInAnyOrganization(principal.userId, 'platform_admin')
  }
}
