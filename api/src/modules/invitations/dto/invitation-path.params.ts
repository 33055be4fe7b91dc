import { IsString, IsUUID } from 'class-validator'

/** Path of `DELETE /orgs/:orgId/invitations/:invitationId` (`orgId` is checked by `@Authorized`). */
export class OrgInvitationParams {
  @IsString()
  orgId: string

  @IsUUID('4')
  invitationId: string
}

/** Path of `PUT /users/invitations/:invitationId`. */
export class UserInvitationParams {
  @IsUUID('4')
  invitationId: string
}
