import type { InvitationStatus } from '../invitation.entity'
import type { RoledInvitation } from '../invitation-roles'
import { arrayOf, dateTime, email, object, oneOf, string, uuid } from '../../../infra/http/data-schema'
import { INVITATION_STATUSES } from '../invitation.entity'

/** An item of `GET /orgs/:orgId/invitations` (spec: Organization invitation). */
export interface InvitationResponse {
  id: string
  email: string
  status: InvitationStatus
  orgRoles: { id: string; name: string }[]
  createdAt: string
}

/** An item of `GET /users/invitations`: the invitee's view, with the organization. */
export interface UserInvitationResponse {
  id: string
  orgName: string
  orgId: string
  status: InvitationStatus
  orgRoles: { id: string; name: string }[]
  createdAt: string
}

export function toInvitationResponse({ invitation, orgRoles }: RoledInvitation): InvitationResponse {
  return {
    id: invitation.id,
    email: invitation.email,
    status: invitation.status,
    orgRoles,
    createdAt: invitation.createdAt.toISOString(),
  }
}

export function toUserInvitationResponse({ invitation, orgRoles }: RoledInvitation): UserInvitationResponse {
  return {
    id: invitation.id,
    orgName: invitation.organization.name,
    orgId: invitation.organization.id,
    status: invitation.status,
    orgRoles,
    createdAt: invitation.createdAt.toISOString(),
  }
}

/** The message of `POST /orgs/:orgId/invitations` (message only): says what was sent and what was skipped. */
export function describeInvitationBatch(result: { sent: string[]; skipped: string[] }): string {
  const sent = `${result.sent.length} invitation${result.sent.length === 1 ? '' : 's'} sent`
  if (result.skipped.length === 0) return sent
  const skipped = `${result.skipped.length} address${result.skipped.length === 1 ? '' : 'es'}`
  return `${sent}; ${skipped} already had a pending invitation`
}

const INVITATION_ROLE_SCHEMA = object<{ id: string; name: string }>(undefined, { id: uuid, name: string })

/** The invitation responses in the OpenAPI document. */
export const INVITATION_SCHEMA = object<InvitationResponse>('Invitation', {
  id: uuid,
  email,
  status: oneOf(INVITATION_STATUSES),
  orgRoles: arrayOf(INVITATION_ROLE_SCHEMA),
  createdAt: dateTime,
})
export const USER_INVITATION_SCHEMA = object<UserInvitationResponse>('UserInvitation', {
  id: uuid,
  orgName: string,
  orgId: uuid,
  status: oneOf(INVITATION_STATUSES),
  orgRoles: arrayOf(INVITATION_ROLE_SCHEMA),
  createdAt: dateTime,
})
