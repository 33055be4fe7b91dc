import type { MailMessage } from '../../api/src/infra/mail/mailer'
import type { MailService } from '../../api/src/infra/mail/mail.service'
import type { MailOutbox } from '../../api/src/infra/mail/mail-outbox'
import { RateLimitStore } from '../../api/src/infra/rate-limit/rate-limit-store'
import { EmailVerification } from '../../api/src/modules/auth/email-verification.entity'
import type {
  EmailVerificationsRepository,
  NewEmailVerification,
} from '../../api/src/modules/auth/email-verifications.repository'
import { RefreshToken } from '../../api/src/modules/auth/refresh-token.entity'
import type { NewRefreshToken, RefreshTokensRepository } from '../../api/src/modules/auth/refresh-tokens.repository'
import type { SessionRevocationReason } from '../../api/src/modules/auth/revoked-session.entity'
import type { RevokedSessionsRepository } from '../../api/src/modules/auth/revoked-sessions.repository'
import { User } from '../../api/src/modules/users/user.entity'
import type { NewUser, UsersRepository } from '../../api/src/modules/users/users.repository'

/** The public surface of a class: what a hand-written fake has to provide. */
export type PublicOf<T> = { [K in keyof T]: T[K] }

/** Hands a fake to a constructor that asks for the real class (whose private fields a fake cannot have). */
export function asDouble<T>(fake: NoInfer<PublicOf<T>>): T {
  return fake as unknown as T
}

/** What every repository inherits from BaseRepository, for fakes: no transaction, nothing to flush. */
export class FakeRepository {
  public transactional<T>(work: () => Promise<T>): Promise<T> {
    return work()
  }
  public inOwnContext<T>(work: () => Promise<T>): Promise<T> {
    return work()
  }
  public async flush(): Promise<void> {}
}

/** Hand-written doubles for unit tests of the auth services: no database, same rules as the SQL. */
export class FakeEmailVerificationsRepository extends FakeRepository implements PublicOf<EmailVerificationsRepository> {
  public readonly rows: EmailVerification[] = []

  public async add(data: NewEmailVerification): Promise<EmailVerification> {
    const row = Object.assign(new EmailVerification(), data)
    this.rows.push(row)
    return row
  }

  public async findNewest(email: string): Promise<EmailVerification | null> {
    return this.rows.filter((row) => row.email === email).at(-1) ?? null
  }

  public async findUnconsumedVerified(email: string, since: Date): Promise<EmailVerification | null> {
    const candidates = this.rows.filter(
      (row) => row.email === email && !row.consumedAt && row.verifiedAt && row.verifiedAt >= since,
    )
    return candidates.at(-1) ?? null
  }

  public async recordFailedAttempt(verification: EmailVerification): Promise<number> {
    verification.failedAttempts += 1
    return verification.failedAttempts
  }

  public async markVerified(verification: EmailVerification, at: Date): Promise<boolean> {
    if (verification.verifiedAt || verification.consumedAt) return false
    verification.verifiedAt = at
    return true
  }

  public async markConsumed(verification: EmailVerification, at: Date): Promise<boolean> {
    if (verification.consumedAt) return false
    verification.consumedAt = at
    return true
  }
}

export class FakeRefreshTokensRepository extends FakeRepository implements PublicOf<RefreshTokensRepository> {
  public readonly rows: RefreshToken[] = []

  public constructor(private readonly users: User[] = []) {
    super()
  }

  public async add(data: NewRefreshToken): Promise<RefreshToken> {
    const user =
      this.users.find((candidate) => candidate.id === data.userId) ?? Object.assign(new User(), { id: data.userId })
    const row = Object.assign(new RefreshToken(), {
      user,
      familyId: data.familyId,
      tokenHash: data.tokenHash,
      expiresAt: data.expiresAt,
    })
    this.rows.push(row)
    return row
  }

  public async findByHash(tokenHash: string): Promise<RefreshToken | null> {
    return this.rows.find((row) => row.tokenHash === tokenHash) ?? null
  }

  public async markUsed(token: RefreshToken, at: Date): Promise<boolean> {
    if (token.usedAt || token.revokedAt) return false
    token.usedAt = at
    return true
  }

  public async revokeFamily(familyId: string, at: Date): Promise<number> {
    const live = this.rows.filter((row) => row.familyId === familyId && !row.revokedAt)
    for (const row of live) row.revokedAt = at
    return live.length
  }
}

export class FakeUsersRepository extends FakeRepository implements PublicOf<UsersRepository> {
  public readonly rows: User[] = []

  public async findById(userId: string): Promise<User | null> {
    return this.rows.find((row) => row.id === userId) ?? null
  }

  public async findByEmail(email: string): Promise<User | null> {
    return this.rows.find((row) => row.email === email) ?? null
  }

  public async existsByEmail(email: string): Promise<boolean> {
    return this.rows.some((row) => row.email === email)
  }

  public async findWithPasswordHash(email: string): Promise<User | null> {
    return this.findByEmail(email)
  }

  public async add(data: NewUser): Promise<User> {
    const row = Object.assign(new User(), data)
    this.rows.push(row)
    return row
  }
}

/** Keeps what would have been queued (MailService) or written to the outbox (MailOutbox). */
export class RecordingMailService implements Pick<MailService, 'enqueue'>, Pick<MailOutbox, 'add'> {
  public readonly sent: MailMessage[] = []
  public readonly keys: string[] = []

  public async enqueue(message: MailMessage): Promise<void> {
    this.sent.push(message)
  }

  public async add(mails: readonly { idempotencyKey: string; message: MailMessage }[]): Promise<void> {
    for (const mail of mails) {
      this.sent.push(mail.message)
      this.keys.push(mail.idempotencyKey)
    }
  }
}

export class InMemoryRateLimitStore extends RateLimitStore {
  public readonly counters = new Map<string, { key: string; windowStart: Date; count: number }>()
  public readonly sweeps: Date[] = []

  public async increment(key: string, windowStart: Date, amount = 1): Promise<number> {
    const id = `${key}@${windowStart.toISOString()}`
    const counter = this.counters.get(id) ?? { key, windowStart, count: 0 }
    counter.count += amount
    this.counters.set(id, counter)
    return counter.count
  }

  public async deleteWindowsBefore(cutoff: Date): Promise<number> {
    this.sweeps.push(cutoff)
    let deleted = 0
    for (const [id, counter] of this.counters) {
      if (counter.windowStart < cutoff) {
        this.counters.delete(id)
        deleted += 1
      }
    }
    return deleted
  }
}

/** Revoked sessions in memory; `queries` counts the loads, so tests can see there is no query per request. */
export class FakeRevokedSessionsRepository extends FakeRepository implements PublicOf<RevokedSessionsRepository> {
  public readonly rows: { sessionId: string; reason: SessionRevocationReason; revokedAt: Date; expiresAt: Date }[] = []
  public queries = 0

  public async add(sessionIds: readonly string[], reason: SessionRevocationReason, at: Date, expiresAt: Date) {
    for (const sessionId of sessionIds) {
      if (!this.rows.some((row) => row.sessionId === sessionId))
        this.rows.push({ sessionId, reason, revokedAt: at, expiresAt })
    }
  }

  public async listActive(now: Date): Promise<string[]> {
    this.queries += 1
    return this.rows.filter((row) => row.expiresAt > now).map((row) => row.sessionId)
  }

  public async pruneExpired(limit: number): Promise<number> {
    const now = new Date()
    const expired = this.rows.filter((row) => row.expiresAt <= now).slice(0, limit)
    this.rows.splice(0, this.rows.length, ...this.rows.filter((row) => !expired.includes(row)))
    return expired.length
  }
}
