import type { Principal } from './token.service'

/**
 * The roles a caller holds in an organization, for the authorization checker. The memberships module owns
 * memberships and binds the implementation; infra only asks.
 */
export abstract class OrgRoleLookup {
  /** Role names the principal holds in the organization; none when it is not a member. */
  public abstract rolesOf(principal: Principal, orgId: string): Promise<string[]>
}
