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
/**
 * @default 2 waiting per client address (PASSWORD_HASH_QUEUE_PER_CLIENT): a flood from one address keeps at most
 * this many of the queue and runs in at most all slots but one, and slots go to the addresses in turn, so another
 * address's sign-in starts at once or after about one hash.
 */
export const DEFAULT_PASSWORD_HASH_QUEUE_PER_CLIENT = 2

export interface PasswordHashingLimits {
  concurrency: number
  maxQueued: number
  /** @default DEFAULT_PASSWORD_HASH_QUEUE_PER_CLIENT */
  maxQueuedPerClient?: number
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
    // Bounded so that a burst of bogus sign-ins costs a real one a bounded wait (or a fast 429), not seconds, and
    // fair across client addresses so that one address's burst does not refuse everyone else (issue 22, item 11).
    this.gate = new ConcurrencyGate({
      maxQueuedPerClient: DEFAULT_PASSWORD_HASH_QUEUE_PER_CLIENT,
      // One address never holds every slot: another address's sign-in starts at once, not after a hash.
      maxRunningPerClient: Math.max(1, limits.concurrency - 1),
      ...limits,
      busyMessage: 'Too many sign-ins at once; try again in a moment',
    })
  }

  /**
   * @param client the caller's address (clientAddressOf): its share of the hashing queue and its turn
   * @throws RateLimitedError when the hashing slots and their queue (or this client's share) are full
   */
  public async hash(secret: string, client?: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await this.gate.run(() => scrypt(secret, salt, 32, this.options(this.logN, 8, 1)), client)
    return ['scrypt', this.logN, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')
  }

  /**
   * @param client the caller's address (clientAddressOf): its share of the hashing queue and its turn
   * @throws RateLimitedError when the hashing slots and their queue (or this client's share) are full
   */
  public async verify(secret: string, encoded: string, client?: string): Promise<boolean> {
    const [scheme, logN, r, p, salt, hash] = encoded.split('$')
    if (scheme !== 'scrypt' || !salt || !hash) return false
    const expected = Buffer.from(hash, 'base64')
    const actual = await this.gate.run(
      () =>
        scrypt(secret, Buffer.from(salt, 'base64'), expected.length, this.options(Number(logN), Number(r), Number(p))),
      client,
    )
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  }

  private options(logN: number, r: number, p: number): ScryptOptions {
    const N = 2 ** logN
    return { N, r, p, maxmem: 256 * N * r }
  }
}
