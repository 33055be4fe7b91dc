import { IsString, IsUUID } from 'class-validator'

/** Path of `GET /orgs/:orgId/credentials/:credentialRecordId` (`orgId` is checked by `@Authorized`). */
export class CredentialRecordParams {
  @IsString()
  orgId: string

  @IsUUID()
  credentialRecordId: string
}
