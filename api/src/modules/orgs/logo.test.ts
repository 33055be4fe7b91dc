import { crc32 } from 'node:zlib'
import { InvalidInputError } from '@idplane/common'
import { MAX_LOGO_BYTES, parseLogo } from './logo'

const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const GIF_BYTES = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
/** A 2x2 baseline JPEG as a browser encodes it (its ICC profile segment left out). */
const JPEG_BYTES = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCWAAqu/9k=',
  'base64',
)
/** A 1x1 lossless WebP. */
const WEBP_BYTES = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64')
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'

/** The PNG with a private ancillary chunk of `size` zero bytes before IEND (decoders skip it). */
function withPrivateChunk(png: Buffer, size: number): Buffer {
  const chunk = Buffer.alloc(12 + size)
  chunk.writeUInt32BE(size, 0)
  chunk.write('prVt', 4, 'latin1')
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + size)), 8 + size)
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)])
}

function corrupt(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes)
  copy[at] = (copy[at] ?? 0) ^ 0xff
  return copy
}

const dataUri = (mediaType: string, bytes: Buffer | string) =>
  `data:${mediaType};base64,${Buffer.from(bytes).toString('base64')}`

function rejection(value: string, allowUrl = false): string | undefined {
  try {
    parseLogo(value, { allowUrl })
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    const fields = (error as InvalidInputError).fields
    expect(fields.map((field) => field.field)).toEqual(['logo'])
    return fields[0]?.message
  }
}

describe('parseLogo', () => {
  it.each([
    ['a PNG', dataUri('image/png', PNG_BYTES)],
    ['a GIF', dataUri('image/gif', GIF_BYTES)],
    ['a JPEG', dataUri('image/jpeg', JPEG_BYTES)],
    ['a WebP', dataUri('image/webp', WEBP_BYTES)],
    ['an empty string (no logo)', ''],
  ])('accepts %s and returns it unchanged', (_case, value) => {
    expect(parseLogo(value, { allowUrl: false })).toBe(value)
  })

  it('accepts an http(s) URL only where URLs are allowed (creation)', () => {
    expect(parseLogo('https://cdn.example.com/a.png', { allowUrl: true })).toBe('https://cdn.example.com/a.png')
    expect(rejection('https://cdn.example.com/a.png')).toMatch(/base64 data URI/)
    expect(rejection('ftp://cdn.example.com/a.png', true)).toMatch(/URL or a base64/)
  })

  it.each([
    ['bytes of another type than declared', dataUri('image/jpeg', PNG_BYTES)],
    ['text declared as PNG', dataUri('image/png', 'hello world')],
    ['a media type outside the list', dataUri('image/bmp', PNG_BYTES)],
    ['a non-image media type', dataUri('text/html', '<b>x</b>')],
    ['broken base64', 'data:image/png;base64,iVBORw0K$$$'],
    ['base64 of the wrong length', 'data:image/png;base64,iVBORw0KG'],
    ['no base64 marker', `data:image/png,${PNG_BYTES.toString('base64')}`],
    ['empty data', 'data:image/png;base64,'],
    ['a PNG cut short', dataUri('image/png', PNG_BYTES.subarray(0, PNG_BYTES.length - 12))],
    ['a PNG cut inside its image data', dataUri('image/png', PNG_BYTES.subarray(0, 45))],
    ['a PNG with a corrupted chunk', dataUri('image/png', corrupt(PNG_BYTES, 40))],
    ['a JPEG header alone', dataUri('image/jpeg', JPEG_BYTES.subarray(0, 24))],
    ['a JPEG without its end marker', dataUri('image/jpeg', JPEG_BYTES.subarray(0, JPEG_BYTES.length - 2))],
    ['a GIF without its trailer', dataUri('image/gif', GIF_BYTES.subarray(0, GIF_BYTES.length - 1))],
    ['a WebP header alone', dataUri('image/webp', WEBP_BYTES.subarray(0, 20))],
    [
      'a PNG header followed by HTML',
      dataUri('image/png', Buffer.concat([PNG_BYTES.subarray(0, 33), Buffer.from('<script>')])),
    ],
    ['plain text', 'logo'],
  ])('rejects %s', (_case, value) => {
    expect(rejection(value, true)).toBeDefined()
  })

  // Issue 8, item 8: each of these passed the old SVG filter; no SVG is accepted any more.
  it.each([
    ['a plain SVG', SVG],
    [
      'a namespaced script',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></svg>',
    ],
    [
      'an entity-encoded javascript: link',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="&#106;avascript:alert(1)"><rect width="9" height="9"/></a></svg>',
    ],
    [
      'an external image',
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="https://attacker.example/track.png" width="9" height="9"/></svg>',
    ],
    [
      'an XXE DOCTYPE',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&xxe;</text></svg>',
    ],
  ])('rejects an SVG logo: %s', (_case, svg) => {
    expect(rejection(dataUri('image/svg+xml', svg), true)).toMatch(/SVG logos are not accepted/)
    // Declared as a raster type, the same markup fails the byte check.
    expect(rejection(dataUri('image/png', svg), true)).toMatch(/not a valid image\/png/)
  })

  it('rejects an image over the size limit, and accepts one at it', () => {
    const padded = withPrivateChunk(PNG_BYTES, MAX_LOGO_BYTES - PNG_BYTES.length - 12)
    expect(parseLogo(dataUri('image/png', padded), { allowUrl: false })).toMatch(/^data:image\/png/)
    const tooBig = withPrivateChunk(PNG_BYTES, MAX_LOGO_BYTES - PNG_BYTES.length - 11)
    expect(rejection(dataUri('image/png', tooBig))).toMatch(/at most 512 KiB/)
  })
})
