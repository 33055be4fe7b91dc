import { randomBytes } from 'node:crypto'
import { decodeBase58, encodeBase58 } from './base58'

describe('base58', () => {
  it('encodes known vectors (Bitcoin alphabet)', () => {
    expect(encodeBase58(Buffer.from('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U')
    expect(encodeBase58(Buffer.from([0, 0, 0x28, 0x7f, 0xb4, 0xcd]))).toBe('11233QC4')
    expect(encodeBase58(Buffer.alloc(0))).toBe('')
  })

  it('decodes what it encodes, leading zero bytes included', () => {
    for (let round = 0; round < 200; round += 1) {
      const bytes = Buffer.concat([Buffer.alloc(round % 3), randomBytes(round % 40)])
      expect(decodeBase58(encodeBase58(bytes))).toEqual(bytes)
    }
  })

  it('refuses characters outside the alphabet', () => {
    expect(decodeBase58('0OIl')).toBeUndefined()
    expect(decodeBase58('abc+')).toBeUndefined()
  })
})
