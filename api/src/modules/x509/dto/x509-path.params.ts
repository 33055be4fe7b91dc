import { IsString, IsUUID } from 'class-validator'

/** Path of the single-certificate routes (`orgId` is checked by `@Authorized`). */
export class X509CertificatePathParams {
  @IsString()
  orgId: string

  /** The agent's record id of the certificate. */
  @IsUUID()
  id: string
}
