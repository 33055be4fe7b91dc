import { IsNotEmpty, IsOptional, IsString, Length, MaxLength } from 'class-validator'
import { IsLocationId, IsOptionalHttpUrl, trimmed } from './organization-fields'

/** Body of `POST /v1/orgs` (spec: Organizations, Limits). */
export class CreateOrganizationDto {
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @Length(2, 200)
  name: string

  @trimmed()
  @IsString()
  @IsNotEmpty()
  @Length(2, 1000)
  description: string

  /** An http(s) URL or a base64 data URI image; checked in OrgsService (see logo.ts). */
  @IsOptional()
  @IsString()
  logo?: string

  @IsOptionalHttpUrl()
  website?: string

  /** Spec: a fully qualified URL including http:// or https:// and a top-level domain. */
  @IsOptionalHttpUrl(true)
  notificationWebhook?: string

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(200)
  registrationNumber?: string

  @IsLocationId()
  countryId?: number

  @IsLocationId()
  stateId?: number

  @IsLocationId()
  cityId?: number
}
