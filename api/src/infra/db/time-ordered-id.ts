import { randomUUID } from 'node:crypto'

let lastMs = 0
let sequence = 0

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit sequence (the RFC's method 1) that
 * restarts at a random value below 2048 each millisecond, then the variant and 62 random bits. The ids of one process
 * sort in the order they were made, also within a millisecond (over 2048 in one millisecond borrow the next one), and
 * PostgreSQL compares `uuid` values bytewise, so an `order by id` keeps that order where time stamps tie.
 */
export function timeOrderedId(now = Date.now()): string {
  // A version 4 UUID (Node's pooled randomness): its last two groups give the variant and the random bits, its first
  // group, unused otherwise, the sequence's start.
  const random = randomUUID()
  if (now > lastMs) {
    lastMs = now
    sequence = parseInt(random.slice(0, 3), 16) & 0x7ff
  } else if (++sequence > 0xfff) {
    lastMs++
    sequence = 0
  }
  const time = lastMs.toString(16).padStart(12, '0')
  return `${time.slice(0, 8)}-${time.slice(8)}-7${sequence.toString(16).padStart(3, '0')}-${random.slice(19)}`
}
