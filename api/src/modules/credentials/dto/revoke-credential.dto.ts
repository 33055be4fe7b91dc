import { IsBoolean, IsIn, IsOptional } from 'class-validator'
import { STATUS_PURPOSES, type StatusPurpose } from '@idplane/common/bitstring-status-list'

/** Body of `POST /orgs/:orgId/credentials/:credentialRecordId/revoke` (an extension, issue 25 items 3 and 4). */
export class RevokeCredentialDto {
  /** false: record the change as pending, published by `POST revocations/publish`. @default true */
  @IsOptional()
  @IsBoolean()
  publish?: boolean

  /**
   * `revocation` (permanent) or `suspension` (JSON-LD credentials issued with a suspension status only).
   * @default revocation
   */
  @IsOptional()
  @IsIn(STATUS_PURPOSES)
  purpose?: StatusPurpose

  /** true with purpose `suspension`: lift the suspension (reinstate). @default false */
  @IsOptional()
  @IsBoolean()
  reinstate?: boolean
}
