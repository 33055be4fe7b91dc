/** One address to invite with the role definition ids it gets on acceptance. */
export interface Invitee {
  email: string
  orgRoleIds: string[]
}

/** Most addresses in one `POST /orgs/:orgId/invitations` (docs/decisions.md, Invitations and membership). */
export const MAX_INVITATIONS_PER_REQUEST = 50

/** Addresses are compared and stored trimmed and lower-cased, like user accounts. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/**
 * One entry per address, in order of first appearance; an address listed twice gets the union of its role
 * ids, so one request never sends two mails to the same person.
 */
export function mergeInvitees(items: readonly { email: string; orgRoleId: readonly string[] }[]): Invitee[] {
  const byEmail = new Map<string, Set<string>>()
  for (const item of items) {
    const email = normalizeEmail(item.email)
    const roleIds = byEmail.get(email) ?? new Set<string>()
    item.orgRoleId.forEach((id) => roleIds.add(id.toLowerCase()))
    byEmail.set(email, roleIds)
  }
  return [...byEmail].map(([email, roleIds]) => ({ email, orgRoleIds: [...roleIds] }))
}
