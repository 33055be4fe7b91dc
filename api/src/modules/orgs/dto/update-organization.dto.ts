import { IsBoolean, IsNotEmpty, IsOptional, IsString, Length } from 'class-validator'
import { IsLocationId, IsOptionalHttpUrl, trimmed } from './organization-fields'

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

  @IsOptionalHttpUrl()
  website?: string

  @IsOptional()
  @IsBoolean()
  isPublic?: boolean

  @IsLocationId()
  countryId?: number

  @IsLocationId()
  stateId?: number

  @IsLocationId()
  cityId?: number
}
