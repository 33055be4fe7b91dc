import { InvalidInputError } from '@idplane/common'
import { MAX_LOGO_BYTES, parseLogo } from './logo'

const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const GIF_BYTES = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
const JPEG_BYTES = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11,
  0x01, 0xff, 0xd9,
])
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'

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
    ['an SVG', dataUri('image/svg+xml', SVG)],
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
    ['an SVG with a script', dataUri('image/svg+xml', SVG.replace('<rect', '<script>alert(1)</script><rect'))],
    ['an SVG with an event handler', dataUri('image/svg+xml', SVG.replace('<rect', '<rect onload="x()"'))],
    ['plain text', 'logo'],
  ])('rejects %s', (_case, value) => {
    expect(rejection(value, true)).toBeDefined()
  })

  it('rejects an image over the size limit, and accepts one at it', () => {
    const padded = Buffer.concat([PNG_BYTES, Buffer.alloc(MAX_LOGO_BYTES - PNG_BYTES.length)])
    expect(parseLogo(dataUri('image/png', padded), { allowUrl: false })).toMatch(/^data:image\/png/)
    const tooBig = Buffer.concat([padded, Buffer.alloc(1)])
    expect(rejection(dataUri('image/png', tooBig))).toMatch(/at most 512 KiB/)
  })
})
