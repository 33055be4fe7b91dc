import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator'

/** A PEM certificate with its chain fits; a longer text is no certificate a wallet or verifier should trust. */
const CERTIFICATE_LENGTH = 65536

/**
 * A certificate to trust: credentials signed by an x5c chain ending in it, and OID4VP requests attested by it,
 * verify. The organization's verifier and a cloud wallet take the same body.
 */
export class X509TrustAnchorDto {
  @IsString() @IsNotEmpty() @MaxLength(CERTIFICATE_LENGTH) certificate: string
  @IsOptional() @IsString() @MaxLength(255) label?: string
}

/** Path of the organization's trust-anchor removal (`orgId` is checked by `@Authorized`). */
export class X509TrustAnchorPathParams {
  @IsString()
  orgId: string

  @IsUUID()
  trustAnchorId: string
}
