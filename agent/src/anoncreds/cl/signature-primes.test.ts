import { isProbablePrime } from '../math'
import { SignaturePrimePool, signaturePrimes } from './signature-primes'

/** Lets the pool's fill run: its searches resolve on later turns of the loop. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('SignaturePrimePool', () => {
  it('finds the first prime now, then hands out primes found off the loop, each once, up to its capacity', async () => {
    let offLoop = 0
    let now = 0
    const pool = new SignaturePrimePool(
      3,
      async () => BigInt(1000 + ++offLoop),
      () => BigInt(++now),
    )
    expect(pool.take()).toBe(1n)
    await settle()
    expect(pool.size).toBe(3)
    expect(offLoop).toBe(3)
    expect([pool.take(), pool.take(), pool.take()]).toEqual([1001n, 1002n, 1003n])
    await settle()
    // Refilled behind the takes, never past the capacity, and nothing handed out twice; a burst larger than the pool
    // finds its own.
    expect(pool.size).toBe(3)
    expect([pool.take(), pool.take(), pool.take(), pool.take()]).toEqual([1004n, 1005n, 1006n, 2n])
    expect(now).toBe(2)
    await settle()
    expect(pool.size).toBe(3)
    expect(offLoop).toBe(9)
  })

  it('falls back to a prime found now when a search off the loop fails, and fills again at the next take', async () => {
    let failing = true
    let now = 0
    const pool = new SignaturePrimePool(
      2,
      async () => {
        if (failing) throw new Error('out of memory')
        return 7n
      },
      () => BigInt(++now),
    )
    expect(pool.take()).toBe(1n)
    await settle()
    expect(pool.size).toBe(0)
    failing = false
    expect(pool.take()).toBe(2n)
    await settle()
    expect(pool.size).toBe(2)
    expect(pool.take()).toBe(7n)
    expect(now).toBe(2)
  })

  it("the agent's pool gives distinct primes of the signature's layout (2^596 + an odd offset of up to 119 bits)", async () => {
    const taken = [signaturePrimes.take()]
    for (let i = 0; i < 200 && signaturePrimes.size < 8; i++) await settle()
    expect(signaturePrimes.size).toBe(8)
    for (let i = 0; i < 8; i++) taken.push(signaturePrimes.take())
    expect(new Set(taken).size).toBe(9)
    for (const e of taken) {
      expect(isProbablePrime(e)).toBe(true)
      expect(e > 1n << 596n && e < (1n << 596n) + (1n << 119n)).toBe(true)
    }
    // The refill behind these takes ends before the file does.
    for (let i = 0; i < 200 && signaturePrimes.size < 8; i++) await settle()
  })
})
