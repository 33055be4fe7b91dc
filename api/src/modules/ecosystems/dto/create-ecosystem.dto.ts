import { IsNotEmpty, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator'
import { IsOptionalHttpUrl, trimmed } from '../../orgs/dto/organization-fields'

/** Query of `POST /ecosystem`: the organization that creates the ecosystem and leads it. */
export class CreateEcosystemQuery {
  @IsUUID('4')
  orgId: string
}

/** Body of `POST /ecosystem` (spec: Ecosystem, Limits). */
export class CreateEcosystemDto {
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @Length(2, 50)
  name: string

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @Length(2, 255)
  description: string

  /** Comma-separated tags (spec); our bound: 500 characters. */
  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(500)
  tags?: string

  /** An http(s) URL of the ecosystem's logo. */
  @IsOptionalHttpUrl()
  logo?: string
}
