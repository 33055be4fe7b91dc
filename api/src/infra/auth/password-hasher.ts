import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { ConcurrencyGate } from './concurrency-gate'

/** @default 2^17, OWASP's scrypt recommendation (N=2^17, r=8, p=1, 128 MiB). Tests lower it through config. */
export const DEFAULT_SCRYPT_LOG_N = 17

/**
 * @default 2 scrypt computations at once per process (PASSWORD_HASH_CONCURRENCY): each takes 128 MiB and one
 * of libuv's 4 threads, which file and DNS work share.
 */
export const DEFAULT_PASSWORD_HASH_CONCURRENCY = 2
/**
 * @default 8 waiting (PASSWORD_HASH_QUEUE_MAX). With 2 running and ~0.3 s per hash, a sign-in waits at most
 * about (8 / 2 + 1) x 0.3 s = 1.5 s however many arrive; the ones past the queue get a 429 at once.
 */
export const DEFAULT_PASSWORD_HASH_QUEUE_MAX = 8

export interface PasswordHashingLimits {
  concurrency: number
  maxQueued: number
}

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
  private readonly gate: ConcurrencyGate

  public constructor(
    private readonly logN: number = DEFAULT_SCRYPT_LOG_N,
    limits: PasswordHashingLimits = {
      concurrency: DEFAULT_PASSWORD_HASH_CONCURRENCY,
      maxQueued: DEFAULT_PASSWORD_HASH_QUEUE_MAX,
    },
  ) {
    // Bounded so that a burst of bogus sign-ins costs a real one a bounded wait (or a fast 429), not seconds.
    this.gate = new ConcurrencyGate({ ...limits, busyMessage: 'Too many sign-ins at once; try again in a moment' })
  }

  /** @throws RateLimitedError when the hashing slots and their queue are full */
  public async hash(secret: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await this.gate.run(() => scrypt(secret, salt, 32, this.options(this.logN, 8, 1)))
    return ['scrypt', this.logN, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')
  }

  /** @throws RateLimitedError when the hashing slots and their queue are full */
  public async verify(secret: string, encoded: string): Promise<boolean> {
    const [scheme, logN, r, p, salt, hash] = encoded.split('$')
    if (scheme !== 'scrypt' || !salt || !hash) return false
    const expected = Buffer.from(hash, 'base64')
    const actual = await this.gate.run(() =>
      scrypt(secret, Buffer.from(salt, 'base64'), expected.length, this.options(Number(logN), Number(r), Number(p))),
    )
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  }

  private options(logN: number, r: number, p: number): ScryptOptions {
    const N = 2 ** logN
    return { N, r, p, maxmem: 256 * N * r }
  }
}
