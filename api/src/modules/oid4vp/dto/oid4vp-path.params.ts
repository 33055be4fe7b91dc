import { IsString, IsUUID, Matches } from 'class-validator'
import { PUBLIC_ID, PUBLIC_ID_MESSAGE } from '../../oid4vc/dto/issuer.dto'

/** `PUT .../verifier/:verifierId` (`orgId` is checked by `@Authorized`). */
export class Oid4vpVerifierParams {
  @IsString()
  orgId: string

  @Matches(PUBLIC_ID, { message: `verifierId ${PUBLIC_ID_MESSAGE}` })
  verifierId: string
}

/** `PUT|DELETE .../verification-template/:templateId`. */
export class VerificationTemplateParams {
  @IsString()
  orgId: string

  @IsUUID()
  templateId: string
}
