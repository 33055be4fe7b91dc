import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator'
import { QueryEnum } from './query-enum'
import { PageQuery } from '../../../infra/http/pagination'

export const ECOSYSTEM_SORT_ORDERS = ['asc', 'desc'] as const
export const ECOSYSTEM_SORT_FIELDS = ['createDateTime', 'name'] as const
export type EcosystemSortOrder = (typeof ECOSYSTEM_SORT_ORDERS)[number]
export type EcosystemSortField = (typeof ECOSYSTEM_SORT_FIELDS)[number]

/** Query of `GET /ecosystem`: the ecosystems an organization leads or is an accepted member of. */
export class ListEcosystemsQuery extends PageQuery {
  @IsUUID('4')
  orgId: string

  @IsOptional()
  @QueryEnum(ECOSYSTEM_SORT_ORDERS)
  sortBy: EcosystemSortOrder = 'desc'

  @IsOptional()
  @QueryEnum(ECOSYSTEM_SORT_FIELDS)
  sortField: EcosystemSortField = 'createDateTime'

  /** Part of the ecosystem's name, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(50)
  search?: string
}
