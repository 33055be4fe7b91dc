import { Transform } from 'class-transformer'
import { IsInt, IsOptional, IsUrl, Max, MaxLength, Min } from 'class-validator'

/** Largest value of the int4 columns countryId, stateId and cityId (larger would be a database error). */
export const MAX_LOCATION_ID = 2_147_483_647

/** Trims strings so that `"  a "` counts as one character (spec: Limits, name 2 to 200). */
export const trimmed = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))

/** Validators applied in order, as one decorator: the fields create and update share. */
function allOf(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, property) => decorators.forEach((decorate) => decorate(target, property))
}

/** countryId, stateId, cityId: optional positive int4. */
export const IsLocationId = () => allOf(IsOptional(), IsInt(), Min(1), Max(MAX_LOCATION_ID))

/** An optional absolute http(s) URL of at most 2048 characters; `requireTld` for webhooks (spec: create input). */
export const IsOptionalHttpUrl = (requireTld = false) =>
  allOf(
    IsOptional(),
    IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: requireTld }),
    MaxLength(2048),
  )
