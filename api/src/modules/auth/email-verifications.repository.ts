import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { EmailVerification } from './email-verification.entity'
import { BaseRepository } from '../../infra/db/base.repository'

export interface NewEmailVerification {
  email: string
  codeHash: string
  clientAlias: string
  expiresAt: Date
}

/** Verification records by address. State changes are conditional updates, so concurrent requests cannot both win. */
@injectable()
export class EmailVerificationsRepository extends BaseRepository<EmailVerification> {
  public constructor(em: EntityManager) {
    super(em, EmailVerification)
  }

  public async add(data: NewEmailVerification): Promise<EmailVerification> {
    const verification = this.em.create(EmailVerification, data)
    await this.em.flush()
    return verification
  }

  /** The newest code mailed to the address: the only one that can still be verified. */
  public async findNewest(email: string): Promise<EmailVerification | null> {
    return this.em.findOne(EmailVerification, { email }, { orderBy: { createdAt: 'desc', id: 'desc' } })
  }

  /** The most recently verified, not yet consumed verification of the address verified at or after `since`. */
  public async findUnconsumedVerified(email: string, since: Date): Promise<EmailVerification | null> {
    return this.em.findOne(
      EmailVerification,
      { email, consumedAt: null, verifiedAt: { $gte: since } },
      { orderBy: { verifiedAt: 'desc', id: 'desc' } },
    )
  }

  /** Counts one wrong code; resolves with the number of failures so far. */
  public async recordFailedAttempt(verification: EmailVerification): Promise<number> {
    const rows = await this.em
      .getConnection()
      .execute<
        { failed_attempts: number }[]
      >('update "email_verifications" set "failed_attempts" = "failed_attempts" + 1, "updated_at" = ? where "id" = ? returning "failed_attempts"', [new Date(), verification.id], 'all', this.em.getTransactionContext())
    return Number(rows[0]?.failed_attempts ?? verification.failedAttempts + 1)
  }

  /** Marks the code verified unless it already was; false when another request got there first. */
  public async markVerified(verification: EmailVerification, at: Date): Promise<boolean> {
    const updated = await this.em.nativeUpdate(
      EmailVerification,
      { id: verification.id, verifiedAt: null, consumedAt: null },
      { verifiedAt: at },
    )
    return updated === 1
  }

  /** Marks a verification consumed by a sign-up unless it already was; false when another sign-up took it. */
  public async markConsumed(verification: EmailVerification, at: Date): Promise<boolean> {
    const updated = await this.em.nativeUpdate(
      EmailVerification,
      { id: verification.id, consumedAt: null },
      { consumedAt: at },
    )
    return updated === 1
  }
}
