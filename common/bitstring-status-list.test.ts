import { gzipSync } from 'node:zlib'
import {
  decodeBitstring,
  emptyBitstring,
  encodeBitstring,
  getBit,
  MIN_STATUS_LIST_SIZE,
  setBit,
  StatusListError,
  statusListEntry,
} from './bitstring-status-list'

/** The specification's example encodedList (Bitstring Status List v1.0, example 2): 131,072 entries, none set. */
const SPEC_EMPTY_LIST = 'uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA'

describe('Bitstring Status List', () => {
  it("decodes the specification's example to 131,072 clear entries", () => {
    const bits = decodeBitstring(SPEC_EMPTY_LIST)
    expect(bits.length * 8).toBe(MIN_STATUS_LIST_SIZE)
    expect(bits.every((byte) => byte === 0)).toBe(true)
  })

  it('puts index 0 in the left-most bit and round-trips through encodedList', () => {
    const bits = emptyBitstring(MIN_STATUS_LIST_SIZE)
    setBit(bits, 0, true)
    setBit(bits, 9, true)
    setBit(bits, MIN_STATUS_LIST_SIZE - 1, true)
    expect(bits[0]).toBe(0x80)
    expect(bits[1]).toBe(0x40)
    expect(bits[bits.length - 1]).toBe(0x01)
    const encoded = encodeBitstring(bits)
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/)
    const decoded = decodeBitstring(encoded)
    expect(getBit(decoded, 0)).toBe(true)
    expect(getBit(decoded, 1)).toBe(false)
    expect(getBit(decoded, 9)).toBe(true)
    expect(getBit(decoded, MIN_STATUS_LIST_SIZE - 1)).toBe(true)
    setBit(decoded, 9, false)
    expect(getBit(decoded, 9)).toBe(false)
    expect(decoded[1]).toBe(0)
  })

  it('reads a bit of a list encoded elsewhere (plain gzip, base64url)', () => {
    const raw = new Uint8Array(MIN_STATUS_LIST_SIZE / 8)
    raw[12_345 >> 3] = 0x80 >> (12_345 & 7)
    const encoded = `u${Buffer.from(gzipSync(raw)).toString('base64url')}`
    const bits = decodeBitstring(encoded)
    expect(getBit(bits, 12_345)).toBe(true)
    expect(getBit(bits, 12_344)).toBe(false)
  })

  it('refuses what is not a list: no prefix, not gzip, too short, too long, an index outside', () => {
    expect(() => decodeBitstring(SPEC_EMPTY_LIST.slice(1))).toThrow(StatusListError)
    expect(() => decodeBitstring('uAAAA')).toThrow(StatusListError)
    expect(() => decodeBitstring(`u${Buffer.from(gzipSync(new Uint8Array(100))).toString('base64url')}`)).toThrow(
      /fewer than 131072/,
    )
    expect(() => decodeBitstring(SPEC_EMPTY_LIST, 1024)).toThrow(StatusListError)
    expect(() => getBit(emptyBitstring(8), 8)).toThrow(StatusListError)
    expect(() => emptyBitstring(10)).toThrow(StatusListError)
  })

  it('makes an entry with the index as a string, as the specification writes it', () => {
    expect(statusListEntry('https://api.example/v1/status-lists/abc', 'suspension', 42)).toEqual({
      id: 'https://api.example/v1/status-lists/abc#42',
      type: 'BitstringStatusListEntry',
      statusPurpose: 'suspension',
      statusListIndex: '42',
      statusListCredential: 'https://api.example/v1/status-lists/abc',
    })
  })
})
