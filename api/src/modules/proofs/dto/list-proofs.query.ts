import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import type { ProofSortField } from '../proofs.repository'

export const PROOF_SORT_FIELDS: readonly ProofSortField[] = [
  'createDateTime',
  'updateDateTime',
  'state',
  'connectionId',
]

/**
 * Query of `GET /orgs/:orgId/proofs` (decision, docs/decisions.md "Proofs": the credential list's names):
 * `searchByText` (or its alias `search`) matches state, connection id, thread id and error; `sortField`
 * (`createDateTime` default), `sortBy` (`ASC`/`DESC`, default `DESC`).
 */
export class ListProofsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  searchByText?: string

  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string

  @IsOptional()
  @IsIn(PROOF_SORT_FIELDS)
  // Spelled out (not ProofSortField) so that the design type is String: see RequestTypeQuery.
  sortField: 'createDateTime' | 'updateDateTime' | 'state' | 'connectionId' = 'createDateTime'

  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  sortBy: 'ASC' | 'DESC' = 'DESC'
}
