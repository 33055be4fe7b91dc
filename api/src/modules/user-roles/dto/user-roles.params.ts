import { IsString, IsUUID } from 'class-validator'

/** Path of `PUT /orgs/:orgId/user-roles/:userId` (`orgId` is checked by `@Authorized`). */
export class UserRolesParams {
  @IsString()
  orgId: string

  @IsUUID('4')
  userId: string
}
