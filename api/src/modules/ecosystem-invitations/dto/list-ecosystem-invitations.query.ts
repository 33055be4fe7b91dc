import { IsOptional, IsUUID, ValidateIf } from 'class-validator'
import { QueryEnum } from '../../ecosystems/dto/query-enum'
import { PageQuery } from '../../../infra/http/pagination'
import { ECOSYSTEM_ORG_ROLES, type EcosystemOrgRole } from '../../ecosystems/ecosystem-membership.entity'

/**
 * Query of `GET /ecosystem/invitations`: as `ECOSYSTEM_LEAD`, the invitations the organization sent in one
 * ecosystem (`ecosystemId` required); as `ECOSYSTEM_MEMBER`, the invitations it received (optionally of one
 * ecosystem).
 */
export class ListInvitationsByRoleQuery extends PageQuery {
  @IsUUID('4')
  orgId: string

  @QueryEnum(ECOSYSTEM_ORG_ROLES)
  role: EcosystemOrgRole

  @ValidateIf((query: ListInvitationsByRoleQuery) => query.role === 'ECOSYSTEM_LEAD' || query.ecosystemId !== undefined)
  @IsUUID('4', { message: 'ecosystemId must be a UUID; it is required when role is ECOSYSTEM_LEAD' })
  ecosystemId?: string
}

export const INVITATION_STATUS_FILTERS = ['accepted', 'pending', 'rejected'] as const
export type InvitationStatusFilter = (typeof INVITATION_STATUS_FILTERS)[number]

/** Query of `GET /ecosystem/invitation/status` (docs/decisions.md, "Ecosystems"). */
export class InvitationStatusQuery extends PageQuery {
  @IsOptional()
  @QueryEnum(INVITATION_STATUS_FILTERS)
  status: InvitationStatusFilter = 'accepted'
}
