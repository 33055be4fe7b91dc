import { IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator'

/** Body of `PUT /v1/orgs/:orgId/primary-did`: the DID record id from the DID list and its DID. */
export class SetPrimaryDidDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  did: string

  @IsUUID()
  id: string
}
