import { IsIn } from 'class-validator'

export const INVITATION_RESPONSES = ['accepted', 'rejected'] as const
export type InvitationResponseStatus = (typeof INVITATION_RESPONSES)[number]

/** Body of `PUT /users/invitations/:invitationId`. */
export class UpdateInvitationStatusDto {
  @IsIn(INVITATION_RESPONSES)
  status: InvitationResponseStatus
}
