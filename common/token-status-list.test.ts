import { deflateSync } from 'node:zlib'
import {
  decodeTokenStatusList,
  emptyTokenStatusList,
  encodeTokenStatusList,
  getTokenStatus,
  setTokenStatus,
  statusListTokenPayload,
  tokenStatusCapacity,
  type TokenStatusBits,
} from './token-status-list'

// draft-ietf-oauth-status-list section 4.1: the 1-bit and the 2-bit example lists, their bytes and their lst.
const EXAMPLES: { bits: TokenStatusBits; statuses: number[]; hex: string; lst: string }[] = [
  { bits: 1, statuses: [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1], hex: 'b9a3', lst: 'eNrbuRgAAhcBXQ' },
  { bits: 2, statuses: [1, 2, 0, 3, 0, 1, 0, 1, 1, 2, 3, 3], hex: 'c944f9', lst: 'eNo76fITAAPfAgc' },
]

describe('token status list', () => {
  it.each(EXAMPLES)(
    'builds the draft $bits-bit example byte for byte and lst for lst',
    ({ bits, statuses, hex, lst }) => {
      const bytes = emptyTokenStatusList(statuses.length, bits)
      statuses.forEach((status, index) => setTokenStatus(bytes, bits, index, status))
      expect(Buffer.from(bytes).toString('hex')).toBe(hex)
      expect(encodeTokenStatusList(bytes, bits)).toEqual({ bits, lst })
    },
  )

  it.each(EXAMPLES)('reads the draft $bits-bit example back', ({ bits, statuses, hex, lst }) => {
    const decoded = decodeTokenStatusList({ bits, lst })
    expect(decoded.bits).toBe(bits)
    expect(Buffer.from(decoded.bytes).toString('hex')).toBe(hex)
    expect(statuses.map((_, index) => getTokenStatus(decoded.bytes, bits, index))).toEqual(statuses)
  })

  it.each([1, 2, 4, 8] as const)('round-trips random %i-bit statuses through lst', (bits) => {
    const bytes = emptyTokenStatusList(1000, bits)
    const statuses = Array.from({ length: tokenStatusCapacity(bytes, bits) }, () =>
      Math.floor(Math.random() * (1 << bits)),
    )
    statuses.forEach((status, index) => setTokenStatus(bytes, bits, index, status))
    const decoded = decodeTokenStatusList(encodeTokenStatusList(bytes, bits))
    expect(statuses.map((_, index) => getTokenStatus(decoded.bytes, bits, index))).toEqual(statuses)
  })

  it('changes only the entry it sets (reinstating a suspension clears its two bits)', () => {
    const bytes = emptyTokenStatusList(8, 2)
    setTokenStatus(bytes, 2, 1, 3)
    setTokenStatus(bytes, 2, 2, 2)
    setTokenStatus(bytes, 2, 2, 0)
    expect([0, 1, 2, 3].map((index) => getTokenStatus(bytes, 2, index))).toEqual([0, 3, 0, 0])
  })

  it('refuses widths, statuses and indices the list cannot hold', () => {
    expect(() => emptyTokenStatusList(8, 3 as TokenStatusBits)).toThrow('1, 2, 4 or 8')
    const bytes = emptyTokenStatusList(8, 1)
    expect(() => setTokenStatus(bytes, 1, 0, 2)).toThrow('does not fit')
    expect(() => getTokenStatus(bytes, 1, 8)).toThrow('outside the status list')
    expect(() => getTokenStatus(bytes, 1, -1)).toThrow('outside the status list')
  })

  it('refuses an lst that is not base64url zlib data, or inflates past the bound', () => {
    expect(() => decodeTokenStatusList({ bits: 1, lst: 'not+base64' })).toThrow('base64url')
    expect(() => decodeTokenStatusList({ bits: 1, lst: 'AAAA' })).toThrow('not zlib data')
    expect(() => decodeTokenStatusList({ bits: 5, lst: 'eNrbuRgAAhcBXQ' })).toThrow('1, 2, 4 or 8')
    const big = deflateSync(new Uint8Array(4096)).toString('base64url')
    expect(() => decodeTokenStatusList({ bits: 1, lst: big }, 1024)).toThrow('not zlib data')
  })

  it('builds the token payload of section 5.1 with sub, iat, ttl and status_list', () => {
    const bytes = emptyTokenStatusList(16, 1)
    setTokenStatus(bytes, 1, 0, 1)
    const payload = statusListTokenPayload({
      uri: 'https://issuer.example/v1/token-status-lists/1',
      bytes,
      bits: 1,
      issuedAt: new Date('2026-11-29T00:00:00.500Z'),
      ttlSeconds: 60,
    })
    expect(payload).toEqual({
      sub: 'https://issuer.example/v1/token-status-lists/1',
      iat: 1795910400,
      ttl: 60,
      status_list: encodeTokenStatusList(bytes, 1),
    })
  })
})
