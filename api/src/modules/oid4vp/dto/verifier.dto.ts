import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator'
import type { UpdateVerifierRequest, VerifierRequest } from '@idplane/common/agent-contract/openid4vc-api'
import { PUBLIC_ID, PUBLIC_ID_MESSAGE } from '../../oid4vc/dto/issuer.dto'

/** `PUT /orgs/:orgId/oid4vp/verifier/:verifierId`: replaces the client metadata wallets show. */
export class UpdateOid4vpVerifierDto implements UpdateVerifierRequest {
  /** `client_metadata.client_name`. */
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(256) clientName?: string
  /** https URL of the logo (`client_metadata.logo_uri`). */
  @IsOptional() @IsString() @MaxLength(2048) logoUri?: string
}

/** `POST /orgs/:orgId/oid4vp/verifier`. */
export class CreateOid4vpVerifierDto extends UpdateOid4vpVerifierDto implements VerifierRequest {
  /** The public id in the verifier's URLs (`<agent endpoint>/oid4vp/<verifierId>`); a uuid when absent. */
  @IsOptional() @Matches(PUBLIC_ID, { message: `verifierId ${PUBLIC_ID_MESSAGE}` }) verifierId?: string
}

/** `GET /orgs/:orgId/oid4vp/verifier?verifierId=` (one verifier, or all) and `DELETE` with it (required). */
export class Oid4vpVerifierQuery {
  @IsOptional() @Matches(PUBLIC_ID, { message: `verifierId ${PUBLIC_ID_MESSAGE}` }) verifierId?: string
}

export class DeleteOid4vpVerifierQuery {
  @Matches(PUBLIC_ID, { message: `verifierId ${PUBLIC_ID_MESSAGE}` }) verifierId: string
}
