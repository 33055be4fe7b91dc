import { Transform } from 'class-transformer'
import { IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Length, Max, MaxLength, Min } from 'class-validator'

/** Largest value of the int4 columns countryId, stateId and cityId (larger would be a database error). */
export const MAX_LOCATION_ID = 2_147_483_647

/** Trims strings so that `"  a "` counts as one character (spec: Limits, name 2 to 200). */
export const trimmed = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))

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

  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2048)
  website?: string

  /** Spec: a fully qualified URL including http:// or https:// and a top-level domain. */
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: true })
  @MaxLength(2048)
  notificationWebhook?: string

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(200)
  registrationNumber?: string

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
