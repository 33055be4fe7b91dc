import { cborDecode, cborEncode } from '@animo-id/mdoc'

import { withMapEntry } from './mdoc-status'

const STATUS = new Map([
  [
    'status_list',
    new Map<string, unknown>([
      ['idx', 7],
      ['uri', 'https://api.example/l/1'],
    ]),
  ],
])

describe('withMapEntry', () => {
  it.each([
    [
      'a one-byte header',
      new Map([
        ['version', '1.0'],
        ['docType', 'org.iso.18013.5.1.mDL'],
      ]),
    ],
    // How @animo-id/mdoc writes the MSO (an object): the count in two bytes after 0xb9.
    ['a two-byte count', { version: '1.0', digestAlgorithm: 'SHA-256', docType: 'org.iso.18013.5.1.mDL' }],
    [
      '23 entries (the next count takes a byte of its own)',
      new Map(Array.from({ length: 23 }, (_, i) => [`k${i}`, i])),
    ],
  ])('appends an entry to a map with %s, keeping the entries as they were encoded', (_name, map) => {
    const encoded = cborEncode(map)
    const appended = withMapEntry(encoded, 'status', STATUS)
    const decoded = cborDecode(appended) as Map<string, unknown>
    const original = cborDecode(encoded) as Map<string, unknown>
    expect([...decoded.keys()]).toEqual([...original.keys(), 'status'])
    expect(decoded.get('status')).toEqual(STATUS)
    // The original entries' bytes are carried over unchanged (only the header is new).
    expect(Buffer.from(appended).includes(Buffer.from(encoded.subarray(encoded[0] === 0xb9 ? 3 : 1)))).toBe(true)
  })

  it('refuses what is not a map, and a map that already has the key', () => {
    expect(() => withMapEntry(cborEncode(['a']), 'status', STATUS)).toThrow(/not a CBOR map/)
    expect(() => withMapEntry(cborEncode(new Map([['status', 1]])), 'status', STATUS)).toThrow(/already has status/)
    expect(() => withMapEntry(Uint8Array.of(0xbf, 0xff), 'status', STATUS)).toThrow(/definite-length/)
  })
})
