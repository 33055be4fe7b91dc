import { generatePrimeInRange, generatePrimeInRangeOffLoop } from '../math'
import { LARGE_E_END_RANGE, LARGE_E_START } from './constants'

/** Enough for a burst of offers accepted together; each prime is 75 bytes of memory. */
const DEFAULT_CAPACITY = 8

/**
 * The issuer's signature primes e (2^596 plus a random 119-bit odd offset), found ahead of need. Finding one is a third
 * or more of an AnonCreds signature's time (about 200 random candidates, then OpenSSL's 64 Miller-Rabin rounds on
 * the prime: 8-19 ms of CPU), and done inside the signature it blocks the agent's event loop, so every other exchange
 * waits. The pool fills after the first signature, off the loop (generatePrimeInRangeOffLoop), and a
 * signature takes a prime from it; when it is empty (a burst larger than the pool) the signature finds its own as
 * before. Each prime is handed out once and kept nowhere else; e is public in the credential it signs, so finding it
 * early discloses nothing. Agents that never sign an AnonCreds credential never fill it.
 */
export class SignaturePrimePool {
  private readonly ready: bigint[] = []
  private filling = false

  public constructor(
    private readonly capacity = DEFAULT_CAPACITY,
    private readonly findOffLoop: () => Promise<bigint> = () =>
      generatePrimeInRangeOffLoop(LARGE_E_START, LARGE_E_END_RANGE),
    private readonly findNow: () => bigint = () => generatePrimeInRange(LARGE_E_START, LARGE_E_END_RANGE),
  ) {}

  /** A prime found earlier when one is ready, else one found now; either way the pool fills up again behind it. */
  public take(): bigint {
    const prime = this.ready.shift()
    this.fill()
    return prime ?? this.findNow()
  }

  /** Primes ready to be taken (tests). */
  public get size(): number {
    return this.ready.length
  }

  private fill(): void {
    if (this.filling || this.ready.length >= this.capacity) return
    this.filling = true
    void (async () => {
      try {
        while (this.ready.length < this.capacity) this.ready.push(await this.findOffLoop())
      } catch {
        // OpenSSL refused a test (out of memory, say): signatures find their own primes, which raises the same
        // error where a caller sees it; the next take tries to fill again.
      } finally {
        this.filling = false
      }
    })()
  }
}

/** One pool per agent process: its tenants' signatures draw from it (each prime once, whoever takes it). */
export const signaturePrimes = new SignaturePrimePool()
