import { imageSize } from 'image-size'
import { isURL } from 'class-validator'
import { InvalidInputError } from '@idplane/common'

/**
 * Largest logo accepted, decoded: 512 KiB. Its base64 form (about 700 KB) still fits the default 1 MB
 * API_BODY_LIMIT, so a too-large logo is a clear 400 rather than a 413. See docs/decisions.md (Organizations).
 */
export const MAX_LOGO_BYTES = 512 * 1024

/** Longest logo URL accepted (same bound as `website`). */
export const MAX_LOGO_URL_LENGTH = 2048

/** The data-URI media types accepted, and the type `image-size` must detect in the bytes for each. */
const DETECTED_TYPE_BY_MEDIA_TYPE: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
}

const DATA_URI_PATTERN = /^data:(image\/[a-z+]+);base64,([A-Za-z0-9+/]*={0,2})$/

/** Markup that could run script if an SVG logo were ever opened as a document rather than an <img>. */
const UNSAFE_SVG_PATTERN = /<script|<foreignobject|javascript:|\son[a-z]+\s*=/i

/**
 * Checks an organization logo and returns the value to store as `logoUrl`.
 * A logo is a base64 data URI of a PNG, JPEG, GIF, WebP or SVG image whose bytes really are that type,
 * at most MAX_LOGO_BYTES decoded; with `allowUrl` (creation, spec: "URL or base64 image") an http(s) URL
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
      ? 'logo must be an http(s) URL or a base64 data URI of a PNG, JPEG, GIF, WebP or SVG image'
      : 'logo must be a base64 data URI of a PNG, JPEG, GIF, WebP or SVG image',
  )
}

function parseDataUri(value: string): string {
  // Bound the work before decoding: the encoded form of MAX_LOGO_BYTES is 4/3 of it.
  if (value.length > Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 64) throw tooLarge()
  const match = DATA_URI_PATTERN.exec(value)
  const mediaType = match?.[1]
  const encoded = match?.[2]
  const expectedType = mediaType ? DETECTED_TYPE_BY_MEDIA_TYPE[mediaType] : undefined
  if (!mediaType || encoded === undefined || !expectedType) {
    throw invalidLogo('logo must be data:image/<png|jpeg|gif|webp|svg+xml>;base64,<data>')
  }
  if (encoded.length === 0 || encoded.length % 4 !== 0) throw invalidLogo('logo data is not valid base64')
  const bytes = Buffer.from(encoded, 'base64')
  if (bytes.length > MAX_LOGO_BYTES) throw tooLarge()
  if (detectImageType(bytes) !== expectedType) throw invalidLogo(`logo data is not a valid ${mediaType} image`)
  if (expectedType === 'svg' && UNSAFE_SVG_PATTERN.test(bytes.toString('utf8'))) {
    throw invalidLogo('logo SVG must not contain scripts, event handlers or foreign objects')
  }
  return value
}

function detectImageType(bytes: Buffer): string | undefined {
  try {
    const result = imageSize(bytes)
    return result.width > 0 && result.height > 0 ? result.type : undefined
  } catch {
    // image-size throws for bytes of no known image type or a truncated header.
    return undefined
  }
}

function tooLarge(): InvalidInputError {
  return invalidLogo(`logo must be at most ${MAX_LOGO_BYTES / 1024} KiB once decoded`)
}

function invalidLogo(message: string): InvalidInputError {
  return new InvalidInputError('Invalid logo', [{ field: 'logo', message }])
}
