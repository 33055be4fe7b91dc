import { platformEvent, type PlatformEvent } from '../../infra/platform-events'
import { toMembershipResponse } from './dto/ecosystem.response'
import type { EcosystemMembership } from './ecosystem-membership.entity'

/** The `ecosystem.*` platform events (docs/api-usage.md, "Events"). */
export const ECOSYSTEM_EVENT_TYPES = {
  invitationSent: 'ecosystem.invitation-sent',
  invitationAccepted: 'ecosystem.invitation-accepted',
  invitationRejected: 'ecosystem.invitation-rejected',
  memberStatusChanged: 'ecosystem.member-status-changed',
  memberRemoved: 'ecosystem.member-removed',
} as const

export type EcosystemEventType = (typeof ECOSYSTEM_EVENT_TYPES)[keyof typeof ECOSYSTEM_EVENT_TYPES]

/**
 * One event per affected organization, each carrying the membership record: the organization of the row and
 * the ecosystem's lead, so that each one's webhook receives its own copy.
 */
export function ecosystemEvents(
  type: EcosystemEventType,
  row: EcosystemMembership,
  leadOrgId: string,
): PlatformEvent[] {
  const record = { ...toMembershipResponse(row) }
  const orgIds = [...new Set([row.organization.id, leadOrgId])]
  return orgIds.map((orgId) => platformEvent(type, { orgId }, record))
}
