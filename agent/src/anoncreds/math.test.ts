import { generatePrimeSync } from 'node:crypto'

import { encodeCredentialAttribute } from './encoding'
import {
  bigintFromBytes,
  bigintToBytes,
  bitLength,
  crtModulus,
  fixedBaseInverse,
  generatePrimeInRange,
  generatePrimeInRangeOffLoop,
  generateSafePrime,
  generateSafePrimes,
  hashToBigint,
  isProbablePrime,
  isProbablePrimeOffLoop,
  MathError,
  modInverse,
  modInverseAll,
  modPow,
  modPowCrt,
  modPowConstantTime,
  modPowFixedBase,
  modPowJs,
  modPowSecret,
  parseDecimal,
  randomBelow,
  randomBits,
} from './math'

describe('anoncreds math', () => {
  const p = generatePrimeSync(1024, { bigint: true })
  const q = generatePrimeSync(1024, { bigint: true })
  const n = p * q

  it('modPow through OpenSSL equals square-and-multiply for exponents below, at and above the modulus', () => {
    const base = randomBelow(n)
    for (const exponent of [
      0n,
      1n,
      2n,
      65537n,
      randomBits(600),
      randomBits(2048),
      n - 1n,
      n,
      n + 5n,
      randomBits(3060),
    ]) {
      expect(modPow(base, exponent, n)).toBe(modPowJs(base, exponent, n))
    }
  })

  it('modPow with a negative exponent uses the inverse', () => {
    const base = randomBelow(n)
    const e = randomBits(700)
    expect((modPow(base, -e, n) * modPow(base, e, n)) % n).toBe(1n)
  })

  it('modInverse inverts and refuses a shared factor', () => {
    expect(modInverse(3n, 47n)).toBe(16n)
    expect(() => modInverse(p, n)).toThrow('not invertible')
  })

  it('random values stay in their bounds', () => {
    for (let i = 0; i < 50; i++) {
      expect(bitLength(randomBits(80))).toBeLessThanOrEqual(80)
      const r = randomBelow(1000n)
      expect(r >= 0n && r < 1000n).toBe(true)
    }
  })

  it('primes in range have the ursa layout (2^596 + up to 119 bits)', () => {
    const e = generatePrimeInRange(596, 119)
    expect(isProbablePrime(e)).toBe(true)
    expect(e > 1n << 596n && e < (1n << 596n) + (1n << 119n)).toBe(true)
  })

  it('primes found off the loop have the same layout, and the small-factor sieve keeps every prime', async () => {
    const found = new Set<bigint>()
    for (let i = 0; i < 5; i++) {
      const e = await generatePrimeInRangeOffLoop(596, 119)
      expect(isProbablePrime(e)).toBe(true)
      expect(e > 1n << 596n && e < (1n << 596n) + (1n << 119n)).toBe(true)
      found.add(e)
    }
    expect(found.size).toBe(5)
    // 2^11 + up to 9 bits: every prime in the range must come up (the sieve drops only multiples of small primes).
    const start = 1n << 11n
    const expected = new Set<bigint>()
    for (let n = start + 1n; n < start + (1n << 9n); n += 2n) if (isProbablePrime(n)) expected.add(n)
    const seen = new Set<bigint>()
    for (let i = 0; i < 2000 && seen.size < expected.size; i++) seen.add(await generatePrimeInRangeOffLoop(11, 9))
    expect([...seen].sort()).toEqual([...expected].sort())
    await expect(generatePrimeInRangeOffLoop(8, 1)).rejects.toThrow('invalid prime range')
  })

  it('a prime found off the loop is remembered for the synchronous check; a composite is not', async () => {
    const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto')
    const prime = generatePrimeInRange(596, 119)
    const composite = prime * generatePrimeInRange(300, 100)
    const synchronousChecks = jest.spyOn(crypto, 'checkPrimeSync')
    try {
      expect(await isProbablePrimeOffLoop(prime)).toBe(true)
      expect(await isProbablePrimeOffLoop(composite)).toBe(false)
      expect(await isProbablePrimeOffLoop(1n)).toBe(false)
      expect(synchronousChecks).not.toHaveBeenCalled()
      expect(isProbablePrime(prime)).toBe(true)
      expect(synchronousChecks).not.toHaveBeenCalled()
      expect(isProbablePrime(composite)).toBe(false)
      expect(synchronousChecks).toHaveBeenCalledTimes(1)
    } finally {
      synchronousChecks.mockRestore()
    }
  })

  it('safe primes are safe', async () => {
    const safe = await generateSafePrime(256)
    expect(bitLength(safe)).toBe(256)
    expect(isProbablePrime((safe - 1n) / 2n)).toBe(true)
  })

  it('bytes and decimals round-trip; malformed decimals are null', () => {
    const v = randomBits(2048)
    expect(bigintFromBytes(bigintToBytes(v))).toBe(v)
    expect(parseDecimal('12345')).toBe(12345n)
    expect(parseDecimal('-7')).toBe(-7n)
    for (const bad of ['', '01', '1e5', ' 1', '-0', '0x10', 12, null]) expect(parseDecimal(bad)).toBeNull()
  })

  it('hashes like ursa hash_list_to_bignum (its own test vector)', () => {
    const chunks = [
      'ff9d2eedfee9cffd9ef6dbffedff3fcbef4caecb9bffe79bfa94d3fdf6abfbff',
      'ff9d2eedfee9cffd9ef6dbffedff3fcbef4caecb9bffe79bfa9168615ccbc546',
    ].map((hex) => Buffer.from(hex, 'hex'))
    expect(hashToBigint(chunks).toString(16).toUpperCase()).toBe(
      '2C2566C22E04AB3F18B3BA693823175002F10F400811363D26BBB33633AC8BAD',
    )
  })
})

describe('encodeCredentialAttribute', () => {
  it('keeps i32 values as canonical decimals, as Rust parses them', () => {
    expect(encodeCredentialAttribute('28')).toBe('28')
    expect(encodeCredentialAttribute('+007')).toBe('7')
    expect(encodeCredentialAttribute('-0')).toBe('0')
    expect(encodeCredentialAttribute('-2147483648')).toBe('-2147483648')
    expect(encodeCredentialAttribute('2147483647')).toBe('2147483647')
  })

  it('hashes everything else (out of range, floats, text)', () => {
    // SHA-256("Alex") as a big-endian integer, computed independently with Python's hashlib.
    expect(encodeCredentialAttribute('Alex')).toBe(
      '99262857098057710338306967609588410025648622308394250666849665532448612202874',
    )
    expect(encodeCredentialAttribute('2147483648')).not.toBe('2147483648')
    expect(encodeCredentialAttribute('1.5')).toMatch(/^[0-9]{60,}$/)
    expect(encodeCredentialAttribute('')).toMatch(/^[0-9]{60,}$/)
    expect(encodeCredentialAttribute(' 5')).not.toBe('5')
  })
})

describe('modPowCrt', () => {
  it('equals modPow for exponents of every size, negative ones and bases sharing a factor', () => {
    const p = generatePrimeSync(512, { bigint: true })
    const q = generatePrimeSync(512, { bigint: true })
    const crt = crtModulus(p, q)
    const base = randomBelow(crt.n)
    for (const exponent of [0n, 1n, 3n, randomBits(300), randomBits(1024), randomBits(2500)]) {
      expect(modPowCrt(base, exponent, crt)).toBe(modPowJs(base, exponent, crt.n))
    }
    expect(modPowCrt(base, -12345n, crt)).toBe(modPow(base, -12345n, crt.n))
    expect(modPowCrt(p * 7n, 5n, crt)).toBe(modPowJs(p * 7n, 5n, crt.n))
  })
})

describe('modPowSecret', () => {
  it('equals modPow for an RSA key pair of exponents (the inverse of a signature e, a nonce and its inverse)', async () => {
    // The issuer's key shape: safe primes p = 2p' + 1, q = 2q' + 1; pairs modulo lambda = 2p'q'.
    const [p, q] = await generateSafePrimes(2, 512)
    const crt = crtModulus(p, q)
    const lambda = ((p - 1n) * (q - 1n)) / 2n
    const square = (value: bigint) => (value * value) % crt.n
    const e = generatePrimeInRange(596, 119)
    const odd = randomBelow(lambda) | 1n
    for (const [exponent, publicExponent] of [
      [modInverse(e, lambda), e],
      [odd, modInverse(odd, lambda)],
    ]) {
      // A quadratic residue (as the signature's Q), and a base that is not one: both come back under the pair.
      for (const base of [square(randomBelow(crt.n)), 2n]) {
        const result = modPowSecret(base, exponent, publicExponent, crt)
        expect(result).toBe(modPowJs(base, exponent, crt.n))
        expect(modPow(result, publicExponent, crt.n)).toBe(base)
      }
    }
  })
})

describe('modPowFixedBase and the batched inverses', () => {
  const n = generatePrimeSync(1024, { bigint: true }) * generatePrimeSync(1024, { bigint: true })

  it('equals square-and-multiply for exponents of every width, twice (the remembered lift), and negative ones', () => {
    const base = randomBelow(n)
    for (let round = 0; round < 2; round++) {
      for (const exponent of [0n, 1n, randomBits(600), n - 1n, n, n + 1n, randomBits(2128), randomBits(3060)]) {
        expect(modPowFixedBase(base, exponent, n)).toBe(modPowJs(base, exponent, n))
      }
      // Wider than twice the modulus: the part above the lift is itself split.
      const wide = randomBits(4500)
      expect(modPowFixedBase(base, wide, n)).toBe(modPowJs(base, wide, n))
      const negative = randomBits(2500)
      expect(modPowFixedBase(base, -negative, n)).toBe(modPow(base, -negative, n))
    }
    // Another base under the same modulus is another entry, and base + n is the same base.
    const other = randomBelow(n)
    const e = randomBits(2800)
    expect(modPowFixedBase(other, e, n)).toBe(modPowJs(other, e, n))
    expect(modPowFixedBase(other + n, e, n)).toBe(modPowJs(other, e, n))
    expect(fixedBaseInverse(other, n)).toBe(modInverse(other, n))
  })

  it('raises any base in constant time with the same results as square-and-multiply', () => {
    for (const bits of [1, 17, 456, 592, 2047, 2048, 3100]) {
      const base = randomBelow(n)
      const exponent = randomBits(bits)
      expect(modPowConstantTime(base, exponent, n)).toBe(modPowJs(base, exponent, n))
      expect(modPowConstantTime(base + n, exponent, n)).toBe(modPowJs(base, exponent, n))
    }
    const base = randomBelow(n)
    for (const exponent of [0n, 1n, n - 1n, n, n + 1n]) {
      expect(modPowConstantTime(base, exponent, n)).toBe(modPowJs(base, exponent, n))
    }
    // Bases OpenSSL refuses as a peer key are nobody's secret: computed all the same, wide exponents too (modPow
    // hands those to modPowConstantTime: n - 1 once went back and forth between them without end).
    for (const edge of [0n, 1n, n - 1n]) {
      for (const exponent of [5n, 6n, randomBits(2500)]) {
        expect(modPowConstantTime(edge, exponent, n)).toBe(modPowJs(edge, exponent, n))
        expect(modPow(edge, exponent, n)).toBe(modPowJs(edge, exponent, n))
        expect(modPowFixedBase(edge, exponent, n)).toBe(modPowJs(edge, exponent, n))
      }
    }
    expect(() => modPowConstantTime(base, -1n, n)).toThrow(MathError)
  })

  it('inverts several values at once as one by one, and refuses a value sharing a factor', () => {
    const values = [randomBelow(n), randomBelow(n) + n, randomBelow(n), 1n, randomBelow(n)]
    expect(modInverseAll(values, n)).toEqual(values.map((value) => modInverse(value, n)))
    expect(modInverseAll([], n)).toEqual([])
    expect(modInverseAll([7n], n)).toEqual([modInverse(7n, n)])
    const p = generatePrimeSync(64, { bigint: true })
    const m = p * generatePrimeSync(64, { bigint: true })
    expect(() => modInverseAll([5n, p * 3n, 11n], m)).toThrow('not invertible')
    expect(() => modInverseAll([5n, 0n], m)).toThrow('not invertible')
  })
})

describe('generateSafePrimes', () => {
  it('returns the requested number of distinct safe primes of the size', async () => {
    const primes = await generateSafePrimes(2, 192, 3)
    expect(primes).toHaveLength(2)
    expect(primes[0]).not.toBe(primes[1])
    for (const prime of primes) {
      expect(bitLength(prime)).toBe(192)
      expect(isProbablePrime(prime) && isProbablePrime(prime >> 1n)).toBe(true)
    }
  })
})
