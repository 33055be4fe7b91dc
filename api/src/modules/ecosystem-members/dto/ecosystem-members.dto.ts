import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsUUID } from 'class-validator'
import { QueryEnum } from '../../ecosystems/dto/query-enum'
import { PageQuery } from '../../../infra/http/pagination'
import { ECOSYSTEM_ORG_STATUSES, type EcosystemOrgStatus } from '../../ecosystems/ecosystem-membership.entity'

/** Our bound on `orgIds` in one request (the spec only says non-empty). */
export const MAX_ORG_IDS = 100

/** Query of `GET /ecosystem/members`. */
export class ListEcosystemMembersQuery extends PageQuery {
  @IsUUID('4')
  ecosystemId: string
}

/** Body of `DELETE /ecosystem/member` and `PUT /ecosystem/member/status` (spec: Limits, `orgIds`). */
export class EcosystemMembersDto {
  @IsUUID('4')
  ecosystemId: string

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_ORG_IDS)
  @IsUUID('4', { each: true })
  orgIds: string[]
}

/** Query of `PUT /ecosystem/member/status`. */
export class MemberStatusQuery {
  @QueryEnum(ECOSYSTEM_ORG_STATUSES)
  status: EcosystemOrgStatus
}
