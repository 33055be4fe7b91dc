import { IsNotEmpty, IsString, MaxLength } from 'class-validator'

/** Body of `POST /v1/orgs/:clientId/token`; the spec leaves the field name open (docs/decisions.md). */
export class ClientTokenDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  clientSecret: string
}
