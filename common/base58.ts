/** Bitcoin's base58 alphabet, the one Indy uses for DIDs, verkeys and signatures. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT_OF = new Map([...ALPHABET].map((char, index) => [char, BigInt(index)]))

export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  let digits = ''
  while (value > 0n) {
    digits = ALPHABET[Number(value % 58n)] + digits
    value /= 58n
  }
  return '1'.repeat(zeros) + digits
}

/** The bytes of a base58 string, or undefined when it holds a character outside the alphabet. */
export function decodeBase58(text: string): Buffer | undefined {
  let zeros = 0
  while (zeros < text.length && text[zeros] === '1') zeros += 1
  let value = 0n
  for (const char of text) {
    const digit = DIGIT_OF.get(char)
    if (digit === undefined) return undefined
    value = value * 58n + digit
  }
  const hex = value === 0n ? '' : value.toString(16)
  const body = Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex')
  return Buffer.concat([Buffer.alloc(zeros), body])
}
