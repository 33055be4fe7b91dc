import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy'

/** Why a session ended; kept for the log and for an operator reading the table. */
export type SessionRevocationReason =
  | 'refresh-token-reuse'
  | 'client-credentials-rotated'
  | 'organization-deleted'
  | 'signed-out'

/**
 * A session (`sid` of access tokens) that was ended before its tokens expired: a refresh-token family after
 * reuse, or a client credential after rotation or its organization's deletion. A row is needed only while
 * tokens issued before the revocation can still be valid, so it expires one access-token lifetime after the
 * revocation. Deliberately no foreign key: the row must outlive the organization it came from.
 */
@Entity({ tableName: 'revoked_sessions' })
export class RevokedSession {
  @PrimaryKey({ type: 'string', length: 100 })
  sessionId!: string

  @Property({ type: 'string', length: 40 })
  reason!: SessionRevocationReason

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  revokedAt!: Date

  @Index()
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date
}
