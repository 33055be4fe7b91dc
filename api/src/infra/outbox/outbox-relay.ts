import { randomUUID } from 'node:crypto'
import { Logger } from '@idplane/common'
import { failureOutcome, type RetryPolicy } from '../queue/retry-policy'

/** A row an outbox repository handed out under a claim. `attempts` counts this claim. */
export interface OutboxItem {
  id: string
  attempts: number
}

/**
 * What a relay asks an outbox repository for: the oldest due rows, up to `max`, each held for `leaseSeconds` under
 * `token`. `perOwnerLimit` (outboxes whose rows have an owner): no owner ends up holding more live claims than that.
 */
export interface OutboxClaim {
  token: string
  leaseSeconds: number
  max: number
  perOwnerLimit?: number
}

/** How one send ended; `detail` is what the channel records with the result (a status code, a URL). */
export type SendOutcome<D> = { isSuccess: true; detail: D } | { isSuccess: false; error: string; detail?: D }

/** A failed send as the relay decided it: retried after `retryInMs`, or dead. */
export interface OutboxFailure<D> {
  error: string
  /** Absent when the send threw before it had anything to report. */
  detail?: D
  retryInMs: number
  isDead: boolean
}

/**
 * What a claim took: the rows, oldest first, and whether due rows were left unclaimed (more than `max`, an owner at
 * its limit, or rows another relay holds locked). False tells the relay the outbox had nothing more for it.
 */
export interface Claimed<T> {
  items: T[]
  isMoreDue: boolean
}

/** One outbox (mail, webhook deliveries): its repository's claim and marks, and how a row is sent. */
export interface OutboxChannel<T extends OutboxItem, D> {
  /** The claimed rows; none when nothing is due. */
  claimDue(claim: OutboxClaim): Promise<Claimed<T>>
  /** Sends one row; a thrown error counts as a failed send. */
  send(item: T): Promise<SendOutcome<D>>
  /** Resolves false when the claim was lost (the lease ran out and another relay took the row). */
  markSent(item: T, claimToken: string, detail: D): Promise<boolean>
  markFailed(item: T, claimToken: string, failure: OutboxFailure<D>): Promise<boolean>
  /**
   * Optional: markSent for every row of `sent` and a claim of the next due rows, in one statement, the marked rows'
   * claims counted as ended for the per-owner limit. Without it every sent row costs its mark and, its slot freed, a
   * claim.
   */
  markSentAndClaimDue?(sent: readonly SentRow<T, D>[], claim: OutboxClaim): Promise<MarkedAndClaimed<T>>
}

/** A sent row to mark, under the claim it was sent with. */
export interface SentRow<T, D> {
  item: T
  claimToken: string
  detail: D
}

/** What markSentAndClaimDue did: the ids of the sent rows whose claims still held, and what it claimed next. */
export interface MarkedAndClaimed<T> {
  markedIds: ReadonlySet<string>
  claimed: Claimed<T>
}

/** A sent row waiting for the relay's next combined mark and claim. */
interface WaitingMark<T, D> extends SentRow<T, D> {
  settle(isMarked: boolean): void
  fail(error: unknown): void
}

export interface OutboxRelayOptions {
  /** For logs: `mail`, `webhook`. */
  name: string
  /** Rows being sent at once by this process. */
  concurrency: number
  /** How long a relay waits before looking again when nothing woke it. */
  pollIntervalMs: number
  /** How long a claim holds a row: longer than one send can take. */
  leaseSeconds: number
  /** Passed to the claim: live claims one owner may hold (across processes, counted in the database). */
  perOwnerLimit?: number
  /** The shared retry schedule (infra/queue/retry-policy): attempt n failed, retry after delay n, dead at the last. */
  retry: Pick<RetryPolicy, 'maxAttempts' | 'retryDelaysMs'>
}

/**
 * The one outbox relay (docs/architecture.md, "Outbox relay"): claim one due row, send it, mark it sent or
 * failed, with the shared retry policy. Rows are written in the transaction of what they announce; a relay in
 * every process claims them with `for update skip locked`, so replicas never send one row at once, and a
 * process killed mid-send holds only the rows it was sending, each until its lease ends.
 *
 * Sent and dead rows stay for the channel's retention, then the retention pass deletes them (infra/retention).
 *
 * A relay claims as many rows as it has free slots in one statement (up to `concurrency` rows in flight), one claim
 * at a time per process, which keeps a per-owner limit exact within the process. (One row per statement made the
 * claims the bottleneck under load: 100 cloud-wallet holders' 700 webhook events waited about 4 s in the outbox
 * while each POST took 15 ms; docs/benchmarks.md.)
 */
export class OutboxRelay<T extends OutboxItem, D> {
  private readonly logger: Logger
  private timer?: NodeJS.Timeout
  private claiming?: Promise<number>
  private readonly inFlight = new Set<Promise<boolean>>()
  /**
   * Slots taken: rows claimed whose outcome is not recorded yet. A row marked by markSentAndClaimDue frees its slot
   * in that statement, before its send's promise settles, so this count (not `inFlight`'s size) sizes the claims.
   */
  private held = 0
  /** Sent rows whose mark waits for the claim turn (markSentAndClaimDue). */
  private readonly waitingMarks: WaitingMark<T, D>[] = []
  private isStopped = true
  private again = false
  /**
   * Whether the outbox may hold due rows this relay has not claimed: false once a claim found no more and nothing
   * woke the relay since. A sent row is then marked alone (a cheap update), not with a claim of the next rows (a
   * statement of several steps, most of the relay's database work when deliveries trickle in); new rows wake it
   * (their commit in this process, the poll for other processes').
   */
  private mayHaveDue = true

  public constructor(
    private readonly channel: OutboxChannel<T, D>,
    private readonly options: OutboxRelayOptions,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: `${options.name}-outbox-relay` })
  }

  /** Starts the relay; call once per process. */
  public start(): void {
    this.isStopped = false
    this.wake(0)
  }

  /** Stops claiming and waits for the sends in progress (they finish and are marked). */
  public async stop(): Promise<void> {
    this.isStopped = true
    clearTimeout(this.timer)
    await this.claiming
    await Promise.allSettled([...this.inFlight])
  }

  /** Looks for due rows after `delayMs` (sooner than the poll): something was just written. */
  public wake(delayMs = 0): void {
    if (this.isStopped) return
    this.mayHaveDue = true
    if (this.claiming) {
      this.again = true
      return
    }
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.round(), delayMs)
  }

  /**
   * One round now, for a stopped relay (tests, scripts): claims and sends what is due, at most `concurrency`
   * at a time, until nothing is due. Resolves with how many were sent.
   */
  public async relayOnce(): Promise<number> {
    let sent = 0
    for (;;) {
      const batch = await this.claimAndStart(this.options.concurrency)
      if (batch.length === 0) break
      sent += (await Promise.all(batch)).filter(Boolean).length
      if (batch.length < this.options.concurrency) break
    }
    return sent
  }

  private round(): void {
    if (this.claiming) {
      // Sent rows' marks are claiming (markAndClaim): look again when they end.
      this.again = true
      return
    }
    this.again = false
    this.claiming = this.claimWhileFree()
      .catch((error: unknown) => {
        this.logger.warn('Failed to claim from the outbox', { error })
        return 0
      })
      .finally(() => this.afterClaim())
  }

  /**
   * The claim turn is free again: marks that waited for it go first (their statement claims too, even on a stopped
   * relay, which claims nothing). Then, full: a finishing send wakes the relay; otherwise look again at once when
   * woken meanwhile, else poll.
   */
  private afterClaim(): void {
    this.claiming = undefined
    if (this.waitingMarks.length > 0) {
      this.markAndClaim()
      return
    }
    if (this.isStopped) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.round(), this.again ? 0 : this.options.pollIntervalMs)
  }

  /** Claims rows while slots are free; resolves with how many it started. */
  private async claimWhileFree(): Promise<number> {
    let started = 0
    while (!this.isStopped && this.held < this.options.concurrency) {
      const free = this.options.concurrency - this.held
      const batch = await this.claimAndStart(free)
      started += batch.length
      if (batch.length < free) return started
    }
    return started
  }

  /**
   * Claims up to `max` rows (one token for the claim) and starts sending each; resolves with their sends (awaiting
   * the claim must not wait for them), none when nothing is due.
   */
  private async claimAndStart(max: number): Promise<Promise<boolean>[]> {
    const claim = this.claimOf(max)
    const claimed = await this.channel.claimDue(claim)
    this.noteClaimed(claimed)
    return this.startAll(claimed.items, claim.token)
  }

  /** After a claim: the outbox had nothing more unless the claim says so or something woke the relay meanwhile. */
  private noteClaimed(claimed: Claimed<T>): void {
    this.mayHaveDue = claimed.isMoreDue || this.again
  }

  private claimOf(max: number): OutboxClaim {
    return {
      token: randomUUID(),
      leaseSeconds: this.options.leaseSeconds,
      max,
      perOwnerLimit: this.options.perOwnerLimit,
    }
  }

  /**
   * Starts sending claimed rows. A finished send frees its slot: a running relay claims again, in the sent row's
   * mark when the channel can (markWithNextClaim), else through a round (a round waiting on a full relay may claim).
   */
  private startAll(items: readonly T[], token: string): Promise<boolean>[] {
    return items.map((item) => {
      const sending: Promise<boolean> = this.deliver(item, token).then(({ isSent, isClaimedAfter }) => {
        this.inFlight.delete(sending)
        if (!isClaimedAfter) {
          this.held--
          // A failed row may be due again at once (a retry delay of 0): look, as when rows may be due.
          if (this.mayHaveDue || !isSent) this.wake(0)
        }
        return isSent
      })
      this.inFlight.add(sending)
      this.held++
      return sending
    })
  }

  /**
   * Sends and marks one claimed row; never rejects. `isSent` when it was sent, `isClaimedAfter` when its mark
   * claimed the next rows too.
   */
  private async deliver(item: T, token: string): Promise<{ isSent: boolean; isClaimedAfter: boolean }> {
    let isClaimedAfter = false
    try {
      let outcome: SendOutcome<D>
      try {
        outcome = await this.channel.send(item)
      } catch (error) {
        outcome = { isSuccess: false, error: describe(error) }
      }
      if (outcome.isSuccess) {
        let isMarked: boolean
        if (this.channel.markSentAndClaimDue && !this.isStopped && this.mayHaveDue) {
          isMarked = await this.markWithNextClaim({ item, claimToken: token, detail: outcome.detail })
          isClaimedAfter = true
        } else {
          isMarked = await this.channel.markSent(item, token, outcome.detail)
        }
        if (!isMarked) this.logger.warn('Lost the claim of a sent row; it may be sent again', { id: item.id })
        return { isSent: true, isClaimedAfter }
      }
      const decision = failureOutcome({ prefetch: 1, ...this.options.retry }, item.attempts)
      const failure: OutboxFailure<D> = {
        error: outcome.error,
        detail: outcome.detail,
        retryInMs: decision.kind === 'retry' ? decision.delayMs : 0,
        isDead: decision.kind === 'dead',
      }
      if (!(await this.channel.markFailed(item, token, failure))) {
        this.logger.warn('Lost the claim of a row while sending it', { id: item.id })
      }
      return { isSent: false, isClaimedAfter }
    } catch (error) {
      // The mark failed (database down): the lease ends and the row is claimed again.
      this.logger.warn('Failed to record an outbox send', { id: item.id, error })
      return { isSent: false, isClaimedAfter }
    }
  }

  /**
   * Marks a sent row in the relay's next claim (markSentAndClaimDue): at once when no claim is running, else with
   * the other rows sent meanwhile when the running one ends. One statement then marks them all and claims for their
   * slots and the other free ones; one claim at a time per process keeps the per-owner limit exact. Resolves whether
   * the row's claim still held.
   */
  private markWithNextClaim(sent: SentRow<T, D>): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      this.waitingMarks.push({ ...sent, settle, fail })
      if (!this.claiming) this.markAndClaim()
    })
  }

  /** One statement for the waiting marks and the next claim; holds the claim turn meanwhile. */
  private markAndClaim(): void {
    const markSentAndClaimDue = this.channel.markSentAndClaimDue?.bind(this.channel)
    if (!markSentAndClaimDue) return
    const marks = this.waitingMarks.splice(0)
    // The marked rows' slots count as free: they are marked in the same statement. A stopped relay claims nothing.
    const claim = this.claimOf(this.isStopped ? 0 : this.options.concurrency - this.held + marks.length)
    this.claiming = markSentAndClaimDue(marks, claim)
      .then(
        ({ markedIds, claimed }) => {
          this.held -= marks.length
          for (const mark of marks) mark.settle(markedIds.has(mark.item.id))
          this.noteClaimed(claimed)
          return this.startAll(claimed.items, claim.token).length
        },
        (error: unknown) => {
          for (const mark of marks) mark.fail(error)
          return 0
        },
      )
      .finally(() => this.afterClaim())
  }
}

/** A send failure as stored: class and message, one line, bounded. */
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}
