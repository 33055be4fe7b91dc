import { silentLogger } from '@idplane/common'
import {
  OutboxRelay,
  type Claimed,
  type MarkedAndClaimed,
  type OutboxChannel,
  type OutboxClaim,
  type OutboxItem,
  type SentRow,
} from './outbox-relay'

interface Row extends OutboxItem {
  state: 'pending' | 'claimed' | 'sent'
  token?: string
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * An outbox in memory, shaped as the repositories are: claims take the oldest unclaimed rows; each statement takes a
 * moment. Counts what the relay asked of it and what ran at once.
 */
class MemoryOutbox implements OutboxChannel<Row, string> {
  public readonly rows: Row[]
  public readonly sends = new Map<string, number>()
  public claims = 0
  /** Statements of markSentAndClaimDue, and the rows they marked. */
  public combined = 0
  public markedTogether = 0
  public marks = 0
  public maxSendsAtOnce = 0
  public maxClaimsAtOnce = 0
  private sending = 0
  private claiming = 0

  public constructor(count: number) {
    this.rows = Array.from({ length: count }, (_, index) => ({ id: `row-${index}`, attempts: 0, state: 'pending' }))
  }

  public async claimDue(claim: OutboxClaim): Promise<Claimed<Row>> {
    this.claims++
    return this.claimed(claim)
  }

  /** Adds due rows, as a committed transaction does. */
  public add(count: number): void {
    const first = this.rows.length
    for (let index = first; index < first + count; index++) {
      this.rows.push({ id: `row-${index}`, attempts: 0, state: 'pending' })
    }
  }

  public async send(row: Row): Promise<{ isSuccess: true; detail: string }> {
    this.sending++
    this.maxSendsAtOnce = Math.max(this.maxSendsAtOnce, this.sending)
    this.sends.set(row.id, (this.sends.get(row.id) ?? 0) + 1)
    await tick(2)
    this.sending--
    return { isSuccess: true, detail: 'ok' }
  }

  public async markSent(row: Row, claimToken: string): Promise<boolean> {
    this.marks++
    await tick(1)
    return this.mark(row, claimToken)
  }

  public async markFailed(): Promise<boolean> {
    throw new Error('no send fails here')
  }

  protected async markAndClaim(
    sent: readonly SentRow<Row, string>[],
    claim: OutboxClaim,
  ): Promise<MarkedAndClaimed<Row>> {
    this.combined++
    this.markedTogether += sent.length
    const marked = sent.filter(({ item, claimToken }) => this.mark(item, claimToken))
    return { markedIds: new Set(marked.map(({ item }) => item.id)), claimed: await this.claimed(claim) }
  }

  private mark(claimed: Row, claimToken: string): boolean {
    const row = this.rows.find((stored) => stored.id === claimed.id)
    if (row?.token !== claimToken) return false
    row.state = 'sent'
    return true
  }

  private async claimed(claim: OutboxClaim): Promise<Claimed<Row>> {
    // As PostgreSQL refuses a negative LIMIT.
    if (claim.max < 0) throw new Error(`claim of ${claim.max} rows`)
    this.claiming++
    this.maxClaimsAtOnce = Math.max(this.maxClaimsAtOnce, this.claiming)
    await tick(1)
    const pending = this.rows.filter((row) => row.state === 'pending')
    const due = pending.slice(0, claim.max)
    for (const row of due) Object.assign(row, { state: 'claimed', token: claim.token, attempts: row.attempts + 1 })
    this.claiming--
    return { items: due.map((row) => ({ ...row })), isMoreDue: pending.length > due.length }
  }
}

/** The same outbox with the combined statement (as the webhook deliveries have it). */
class CombiningOutbox extends MemoryOutbox {
  public markSentAndClaimDue(sent: readonly SentRow<Row, string>[], claim: OutboxClaim) {
    return this.markAndClaim(sent, claim)
  }
}

function relayOf(outbox: MemoryOutbox, concurrency: number): OutboxRelay<Row, string> {
  return new OutboxRelay(
    outbox,
    {
      name: 'test',
      concurrency,
      pollIntervalMs: 10_000,
      leaseSeconds: 30,
      retry: { maxAttempts: 3, retryDelaysMs: [10] },
    },
    silentLogger,
  )
}

async function untilAllSent(outbox: MemoryOutbox): Promise<void> {
  const deadline = Date.now() + 10_000
  while (outbox.rows.some((row) => row.state !== 'sent') && Date.now() < deadline) await tick(5)
}

async function relayAll(outbox: MemoryOutbox, concurrency: number): Promise<void> {
  const relay = relayOf(outbox, concurrency)
  relay.start()
  await untilAllSent(outbox)
  await relay.stop()
}

/** Every row sent and marked, each sent once, never more than `concurrency` at a time. */
function expectEachSentOnce(outbox: MemoryOutbox, concurrency: number): void {
  expect(outbox.rows.every((row) => row.state === 'sent')).toBe(true)
  expect([...outbox.sends.values()].every((count) => count === 1)).toBe(true)
  expect(outbox.sends.size).toBe(outbox.rows.length)
  expect(outbox.maxSendsAtOnce).toBeLessThanOrEqual(concurrency)
}

describe('the outbox relay', () => {
  it('sends every row once, at most `concurrency` at a time, one claim at a time', async () => {
    const outbox = new MemoryOutbox(40)
    await relayAll(outbox, 4)
    expectEachSentOnce(outbox, 4)
    expect(outbox.maxClaimsAtOnce).toBe(1)
    expect(outbox.marks).toBe(40)
  })

  it('claims the next rows in a sent row’s mark when the channel can, with no claim of its own per send', async () => {
    const outbox = new CombiningOutbox(40)
    await relayAll(outbox, 4)
    expectEachSentOnce(outbox, 4)
    // Never two claims at once, whether a round's or a mark's: the per-owner limit stays exact in the process.
    expect(outbox.maxClaimsAtOnce).toBe(1)
    // Every sent row is marked once: with the next claim while rows are due (rows sent while a claim ran are marked
    // together after it), alone once a claim found the outbox empty.
    expect(outbox.marks + outbox.markedTogether).toBe(40)
    expect(outbox.marks).toBeLessThanOrEqual(4)
    expect(outbox.combined).toBeLessThan(40)
    // Claims of their own: the first round and rounds woken meanwhile, far fewer than the rows.
    expect(outbox.claims).toBeLessThan(10)
    // In all, fewer statements than the plain relay's one mark per row.
    expect(outbox.combined + outbox.claims).toBeLessThan(40)
  })

  it('marks sent rows alone once the outbox ran dry, and claims with the marks again when new rows wake it', async () => {
    const outbox = new CombiningOutbox(3)
    const relay = relayOf(outbox, 4)
    relay.start()
    await untilAllSent(outbox)
    // The first claim took all three and found nothing more: each is marked alone, with no claim.
    expect(outbox.claims).toBe(1)
    expect(outbox.combined).toBe(0)
    expect(outbox.marks).toBe(3)

    // More rows than slots, then the wake their commit gives: the claim takes four and finds more, so the sent
    // rows' marks claim again until the outbox is dry; the last marks are alone.
    outbox.add(10)
    relay.wake(0)
    await untilAllSent(outbox)
    await relay.stop()
    expect(outbox.rows.every((row) => row.state === 'sent')).toBe(true)
    expect([...outbox.sends.values()].every((count) => count === 1)).toBe(true)
    expect(outbox.combined).toBeGreaterThan(0)
    expect(outbox.marks + outbox.markedTogether).toBe(13)
  })
})
