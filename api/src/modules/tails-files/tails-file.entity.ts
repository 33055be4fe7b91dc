import type { Opt } from '@mikro-orm/core'
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy'

/**
 * A tails file of an AnonCreds revocation registry (docs/decisions.md, "Tails files"), kept in the database under its
 * hash: base58 of its SHA-256, the registry definition's `tailsHash`. Content-addressed, so a row never changes: the
 * same bytes uploaded again are the same row, and other bytes cannot take its name.
 */
@Entity({ tableName: 'tails_files' })
export class TailsFile {
  /** base58(SHA-256(content)): 43 or 44 characters. */
  @PrimaryKey({ type: 'string', length: 64 })
  hash!: string

  @Property({ type: 'blob', columnType: 'bytea', lazy: true })
  content!: Buffer

  @Property({ type: 'integer' })
  size!: number

  /** The organization whose agent uploaded it first; null for the cloud wallet's base agent. */
  @Property({ type: 'uuid', nullable: true })
  uploadedByOrgId?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date()
}
