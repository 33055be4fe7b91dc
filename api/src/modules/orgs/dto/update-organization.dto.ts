import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Length, Max, MaxLength, Min } from 'class-validator'
import { MAX_LOCATION_ID, trimmed } from './create-organization.dto'

/** Body of `PUT /v1/orgs/:orgId`: every field optional, only supplied fields change (spec: Organizations). */
export class UpdateOrganizationDto {
  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @Length(2, 200)
  name?: string

  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @Length(2, 1000)
  description?: string

  /** A base64 data URI image, or '' to remove the logo; checked in OrgsService (see logo.ts). */
  @IsOptional()
  @IsString()
  logo?: string

  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2048)
  website?: string

  @IsOptional()
  @IsBoolean()
  isPublic?: boolean

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LOCATION_ID)
  countryId?: number

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LOCATION_ID)
  stateId?: number

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LOCATION_ID)
  cityId?: number
}
