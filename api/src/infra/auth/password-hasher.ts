import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** @default 2^17, OWASP's scrypt recommendation (N=2^17, r=8, p=1, 128 MiB). Tests lower it through config. */
export const DEFAULT_SCRYPT_LOG_N = 17

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

/**
 * Memory-hard hashing (scrypt) for passwords and client secrets. The encoded form carries its parameters,
 * `scrypt$<logN>$<r>$<p>$<salt>$<hash>`, so the cost can rise later without breaking stored hashes.
 */
export class PasswordHasher {
  public constructor(private readonly logN: number = DEFAULT_SCRYPT_LOG_N) {}

  public async hash(secret: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await scrypt(secret, salt, 32, this.options(this.logN, 8, 1))
    return ['scrypt', this.logN, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')
  }

  public async verify(secret: string, encoded: string): Promise<boolean> {
    const [scheme, logN, r, p, salt, hash] = encoded.split('$')
    if (scheme !== 'scrypt' || !salt || !hash) return false
    const expected = Buffer.from(hash, 'base64')
    const actual = await scrypt(
      secret,
      Buffer.from(salt, 'base64'),
      expected.length,
      this.options(Number(logN), Number(r), Number(p)),
    )
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  }

  private options(logN: number, r: number, p: number): ScryptOptions {
    const N = 2 ** logN
    return { N, r, p, maxmem: 256 * N * r }
  }
}
