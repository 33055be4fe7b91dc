import { isURL } from 'class-validator'
import { InvalidInputError } from '@idplane/common'
import { detectRasterImage, type RasterType } from './raster-image'

/**
 * Largest logo accepted, decoded: 512 KiB. Its base64 form (about 700 KB) still fits the default 1 MB
 * API_BODY_LIMIT, so a too-large logo is a clear 400 rather than a 413. See docs/decisions.md (Organizations).
 */
export const MAX_LOGO_BYTES = 512 * 1024

/** Longest logo URL accepted (same bound as `website`). */
export const MAX_LOGO_URL_LENGTH = 2048

/** The data-URI media types accepted, and the raster type the whole file must be for each. */
const RASTER_TYPE_BY_MEDIA_TYPE: Record<string, RasterType> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
}

const DATA_URI_PATTERN = /^data:(image\/[a-z+]+);base64,([A-Za-z0-9+/]*={0,2})$/

/**
 * Checks an organization logo and returns the value to store as `logoUrl`.
 * A logo is a base64 data URI of a PNG, JPEG, GIF or WebP image whose bytes are a whole image of that type,
 * at most MAX_LOGO_BYTES decoded. SVG is refused: it is a document that can carry script, external references
 * and entities, and no filter of ours kept up with its syntax (issue 8); with `allowUrl` (creation, spec: "URL or base64 image") an http(s) URL
 * is accepted too. An empty string clears the logo (the spec's default).
 * @throws InvalidInputError naming the field `logo`
 */
export function parseLogo(value: string, options: { allowUrl: boolean }): string {
  if (value === '') return ''
  if (value.startsWith('data:')) return parseDataUri(value)
  if (
    options.allowUrl &&
    value.length <= MAX_LOGO_URL_LENGTH &&
    isURL(value, { protocols: ['http', 'https'], require_protocol: true })
  ) {
    return value
  }
  throw invalidLogo(
    options.allowUrl
      ? 'logo must be an http(s) URL or a base64 data URI of a PNG, JPEG, GIF or WebP image'
      : 'logo must be a base64 data URI of a PNG, JPEG, GIF or WebP image',
  )
}

/**
 * The stored logo as it may be shown to others: a logo stored before SVG was refused (or any data URI of a type
 * not accepted now) is shown as no logo, never served.
 */
export function servableLogo(logoUrl: string): string {
  if (!logoUrl.startsWith('data:')) return logoUrl
  const mediaType = /^data:([^;,]*)/.exec(logoUrl)?.[1] ?? ''
  return RASTER_TYPE_BY_MEDIA_TYPE[mediaType] === undefined ? '' : logoUrl
}

function parseDataUri(value: string): string {
  // Bound the work before decoding: the encoded form of MAX_LOGO_BYTES is 4/3 of it.
  if (value.length > Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 64) throw tooLarge()
  const match = DATA_URI_PATTERN.exec(value)
  const mediaType = match?.[1]
  const encoded = match?.[2]
  if (mediaType === 'image/svg+xml') {
    throw invalidLogo('SVG logos are not accepted (they can carry script); use a PNG, JPEG, GIF or WebP image')
  }
  const expectedType = mediaType ? RASTER_TYPE_BY_MEDIA_TYPE[mediaType] : undefined
  if (!mediaType || encoded === undefined || !expectedType) {
    throw invalidLogo('logo must be data:image/<png|jpeg|gif|webp>;base64,<data>')
  }
  if (encoded.length === 0 || encoded.length % 4 !== 0) throw invalidLogo('logo data is not valid base64')
  const bytes = Buffer.from(encoded, 'base64')
  if (bytes.length > MAX_LOGO_BYTES) throw tooLarge()
  if (detectRasterImage(bytes) !== expectedType) throw invalidLogo(`logo data is not a valid ${mediaType} image`)
  return value
}

function tooLarge(): InvalidInputError {
  return invalidLogo(`logo must be at most ${MAX_LOGO_BYTES / 1024} KiB once decoded`)
}

function invalidLogo(message: string): InvalidInputError {
  return new InvalidInputError('Invalid logo', [{ field: 'logo', message }])
}
