import { ORG_ROLE_NAMES, type OrgRoleName } from './org-role.entity'

/**
 * The role lists of the routes (spec: Endpoints, the roles of each route), named once so that a route says
 * `@Authorized(ORG_ROLES.ownerAdmin)` instead of spelling out role names.
 */
export const ORG_ROLES = {
  owner: ['owner'],
  ownerAdmin: ['owner', 'admin'],
  /** Invitations: the platform's super admin may invite as well. */
  inviters: ['owner', 'super_admin', 'admin'],
  /** Reading invitations. */
  invitationReaders: ['owner', 'super_admin', 'admin', 'issuer', 'verifier', 'member'],
  /** Every organization role but holder. */
  members: ['owner', 'admin', 'issuer', 'verifier', 'member'],
  /** Every organization role, holder included. */
  membersAndHolders: ['owner', 'admin', 'issuer', 'verifier', 'member', 'holder'],
  /** The organization's DIDs (spec: verifier not listed). */
  didReaders: ['owner', 'admin', 'issuer', 'member'],
  /** Credential issuance (spec: Credential issuance, offer routes). */
  issuers: ['owner', 'admin', 'issuer'],
} as const satisfies Record<string, readonly OrgRoleName[]>

/**
 * Decision (docs/decisions.md): an organization's machine-to-machine client acts with the `admin` role in
 * that organization only: it can issue, verify and manage connections, but cannot delete the organization
 * or rotate its own credentials (owner-only).
 */
export const CLIENT_ROLE: OrgRoleName = 'admin'

export function isOrgRoleName(name: string): name is OrgRoleName {
  return (ORG_ROLE_NAMES as readonly string[]).includes(name)
}
