import { IsUUID } from 'class-validator'
import { QueryEnum } from '../../ecosystems/dto/query-enum'

/**
 * Body of `POST /ecosystem/invitation` (the organization invited) and of `PUT /ecosystem/invitation/status`
 * (the invited organization answering).
 */
export class EcosystemInvitationDto {
  @IsUUID('4')
  ecosystemId: string

  @IsUUID('4')
  orgId: string
}

export const INVITATION_ANSWERS = ['accepted', 'rejected'] as const
export type InvitationAnswer = (typeof INVITATION_ANSWERS)[number]

/** Query of `PUT /ecosystem/invitation/status`. */
export class InvitationAnswerQuery {
  @QueryEnum(INVITATION_ANSWERS)
  status: InvitationAnswer
}
