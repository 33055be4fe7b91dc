import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsEmail,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator'
import { MAX_INVITATIONS_PER_REQUEST } from '../invitees'

export class InviteeDto {
  @IsEmail()
  @MaxLength(320)
  email: string

  /** Role definition ids (from `GET /orgs/:orgId/roles`) the invitee gets on acceptance. */
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(8)
  @IsUUID('4', { each: true })
  orgRoleId: string[]
}

/** Body of `POST /orgs/:orgId/invitations`. */
export class CreateInvitationsDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_INVITATIONS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => InviteeDto)
  invitations: InviteeDto[]
}

/** Query of `POST /orgs/:orgId/invitations` (spec: Authentication 5, user flows accept `clientAlias`). */
export class CreateInvitationsQuery {
  /** Chooses the front end the mailed link points to; the first configured alias by default. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  clientAlias?: string
}
