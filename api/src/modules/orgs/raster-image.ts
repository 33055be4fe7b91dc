import { crc32, inflateSync } from 'node:zlib'

export type RasterType = 'png' | 'jpeg' | 'gif' | 'webp'

/** Most pixel data a PNG logo may inflate to (a 2048 x 2048 RGBA image), so a small file cannot bomb memory. */
const MAX_PNG_INFLATED_BYTES = 2048 * 2048 * 4 + 2048

/**
 * The raster type of `bytes` when the whole file is well formed, else undefined (issue 8: a logo must be an
 * image that decodes, not a header followed by anything). PNG: every chunk's CRC, IHDR first, IEND last, and the
 * image data inflates to the size its header promises. JPEG: the marker segments from SOI to EOI, with a frame
 * and a scan. GIF: the block structure to the trailer, with an image. WebP: the RIFF chunks and the VP8/VP8L
 * frame signature. Bytes after the end of the image are refused (a polyglot hides its payload there).
 */
export function detectRasterImage(bytes: Buffer): RasterType | undefined {
  try {
    if (isPng(bytes)) return 'png'
    if (isJpeg(bytes)) return 'jpeg'
    if (isGif(bytes)) return 'gif'
    if (isWebp(bytes)) return 'webp'
  } catch {
    // A read past the end (RangeError) or data that does not inflate: not a whole image.
  }
  return undefined
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** Bits per pixel by colour type, per bit depth unit: grey 1, RGB 3, palette 1, grey+alpha 2, RGBA 4 samples. */
const PNG_SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }

function isPng(bytes: Buffer): boolean {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return false
  let offset = 8
  let header: { width: number; height: number; bitsPerPixel: number; interlaced: boolean } | undefined
  const data: Buffer[] = []
  for (;;) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const end = offset + 12 + length
    if (end > bytes.length) return false
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length)) return false
    if (header === undefined && type !== 'IHDR') return false
    if (type === 'IHDR') {
      const samples = PNG_SAMPLES[bytes[offset + 17] ?? -1]
      if (header !== undefined || length !== 13 || samples === undefined) return false
      header = {
        width: bytes.readUInt32BE(offset + 8),
        height: bytes.readUInt32BE(offset + 12),
        bitsPerPixel: samples * (bytes[offset + 16] ?? 0),
        interlaced: bytes[offset + 20] === 1,
      }
      if (header.width === 0 || header.height === 0 || header.bitsPerPixel === 0) return false
    }
    if (type === 'IDAT') data.push(bytes.subarray(offset + 8, offset + 8 + length))
    offset = end
    if (type === 'IEND') break
  }
  if (header === undefined || data.length === 0 || offset !== bytes.length) return false
  const rowBytes = Math.ceil((header.width * header.bitsPerPixel) / 8)
  const expected = header.height * (1 + rowBytes)
  if (!header.interlaced && expected > MAX_PNG_INFLATED_BYTES) return false
  const pixels = inflateSync(Buffer.concat(data), { maxOutputLength: MAX_PNG_INFLATED_BYTES })
  // Interlaced rows are split into seven passes; their total is checked only for being there at all.
  return header.interlaced ? pixels.length > 0 : pixels.length === expected
}

function isJpeg(bytes: Buffer): boolean {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return false
  let offset = 2
  let hasFrame = false
  let hasScan = false
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) return false
    while (bytes[offset] === 0xff) offset += 1
    const marker = bytes[offset]
    offset += 1
    if (marker === undefined) return false
    if (marker === 0xd9) return hasFrame && hasScan && offset === bytes.length
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue
    const length = bytes.readUInt16BE(offset)
    if (length < 2 || offset + length > bytes.length) return false
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      hasFrame = bytes.readUInt16BE(offset + 3) > 0 && bytes.readUInt16BE(offset + 5) > 0
    }
    offset += length
    if (marker === 0xda) {
      hasScan = true
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      while (offset < bytes.length) {
        const next = bytes[offset + 1]
        if (bytes[offset] === 0xff && next !== undefined && next !== 0 && !(next >= 0xd0 && next <= 0xd7)) break
        offset += 1
      }
    }
  }
  return false
}

function isGif(bytes: Buffer): boolean {
  const signature = bytes.toString('latin1', 0, 6)
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return false
  if (bytes.readUInt16LE(6) === 0 || bytes.readUInt16LE(8) === 0) return false
  let offset = 13 + colorTableSize(bytes[10])
  let images = 0
  for (;;) {
    const block = bytes[offset]
    if (block === 0x3b) return images > 0 && offset + 1 === bytes.length
    if (block === 0x21) {
      offset = skipSubBlocks(bytes, offset + 2)
    } else if (block === 0x2c) {
      offset += 10 + colorTableSize(bytes[offset + 9])
      const minimumCodeSize = bytes[offset]
      if (minimumCodeSize === undefined || minimumCodeSize < 2 || minimumCodeSize > 11) return false
      offset = skipSubBlocks(bytes, offset + 1)
      images += 1
    } else {
      return false
    }
  }
}

function colorTableSize(flags: number | undefined): number {
  if (flags === undefined) throw new RangeError('GIF cut short')
  return flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0
}

function skipSubBlocks(bytes: Buffer, start: number): number {
  let offset = start
  for (;;) {
    const size = bytes[offset]
    if (size === undefined) throw new RangeError('GIF cut short')
    offset += 1 + size
    if (size === 0) return offset
  }
}

function isWebp(bytes: Buffer): boolean {
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return false
  if (bytes.readUInt32LE(4) + 8 !== bytes.length) return false
  let offset = 12
  let hasFrame = false
  while (offset < bytes.length) {
    const type = bytes.toString('latin1', offset, offset + 4)
    const size = bytes.readUInt32LE(offset + 4)
    const data = offset + 8
    if (data + size > bytes.length) return false
    if (type === 'VP8 ') {
      hasFrame = size >= 10 && bytes[data + 3] === 0x9d && bytes[data + 4] === 0x01 && bytes[data + 5] === 0x2a
      if (!hasFrame) return false
    }
    if (type === 'VP8L') {
      hasFrame = size >= 5 && bytes[data] === 0x2f
      if (!hasFrame) return false
    }
    offset = data + size + (size % 2)
  }
  return hasFrame && offset === bytes.length
}
