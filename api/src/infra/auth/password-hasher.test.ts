import { RateLimitedError } from '@idplane/common'
import { PasswordHasher } from './password-hasher'

describe('PasswordHasher', () => {
  it('hashes and verifies', async () => {
    const hasher = new PasswordHasher(4)
    const hash = await hasher.hash('secret-1')
    expect(await hasher.verify('secret-1', hash)).toBe(true)
    expect(await hasher.verify('secret-2', hash)).toBe(false)
  })

  it('bounds concurrent hashing: past the slots and the queue a call is refused at once with 429', async () => {
    const hasher = new PasswordHasher(4, { concurrency: 1, maxQueued: 1 })
    const outcomes = await Promise.allSettled([
      hasher.hash('a'),
      hasher.hash('b'),
      hasher.verify('c', 'scrypt$4$8$1$AA==$AA=='),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitedError)
    // The queue drained: the next call runs.
    await expect(hasher.hash('d')).resolves.toMatch(/^scrypt\$/)
  })
})
