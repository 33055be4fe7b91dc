import { IsString, IsUUID, Matches } from 'class-validator'
import { PUBLIC_ID, PUBLIC_ID_MESSAGE } from './issuer.dto'

/** Routes of one issuer (`orgId` is checked by `@Authorized`). */
export class Oid4vcIssuerParams {
  @IsString()
  orgId: string

  @Matches(PUBLIC_ID, { message: `issuerId ${PUBLIC_ID_MESSAGE}` })
  issuerId: string
}

/** Routes of one template of an issuer. */
export class CredentialTemplateParams extends Oid4vcIssuerParams {
  @IsUUID()
  templateId: string
}

/** `GET .../credential-offer/:id`. */
export class Oid4vcOfferParams {
  @IsString()
  orgId: string

  @IsUUID()
  id: string
}

/** `DELETE .../:credentialId/delete-offer` (the reference platform's name for the offer id). */
export class Oid4vcDeleteOfferParams {
  @IsString()
  orgId: string

  @IsUUID()
  credentialId: string
}
