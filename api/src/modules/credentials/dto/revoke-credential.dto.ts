import { IsBoolean, IsOptional } from 'class-validator'

/** Body of `POST /orgs/:orgId/credentials/:credentialRecordId/revoke` (an extension, issue 25 item 3). */
export class RevokeCredentialDto {
  /** false: record the revocation as pending, published by `POST revocations/publish`. @default true */
  @IsOptional()
  @IsBoolean()
  publish?: boolean
}
