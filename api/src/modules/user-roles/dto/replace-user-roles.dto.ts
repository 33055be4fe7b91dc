import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsUUID } from 'class-validator'

/** Body of `PUT /orgs/:orgId/user-roles/:userId`: the user's complete new set of roles. */
export class ReplaceUserRolesDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(8)
  @IsUUID('4', { each: true })
  orgRoleId: string[]
}
