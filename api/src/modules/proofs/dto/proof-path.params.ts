import { IsString, IsUUID } from 'class-validator'

/** Path of the single-proof routes (`orgId` is checked by `@Authorized`). */
export class OrgProofParams {
  @IsString()
  orgId: string

  @IsUUID()
  proofId: string
}
