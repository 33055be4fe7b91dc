import { randomUUID } from 'node:crypto'
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy'
import type { Opt } from '@mikro-orm/core'
import { Organization } from '../orgs/organization.entity'

/**
 * A short public link to a long invitation URL (`isShortenUrl`): what a QR code or a mail carries. The row
 * goes with its organization (foreign key, cascade); a cloud-wallet tenant's link has no organization.
 */
@Entity({ tableName: 'short_urls' })
@Index({ properties: ['expiresAt'] })
export class ShortUrl {
  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID()

  /** The path segment after `/s/`: 22 base64url characters (128 random bits), so links cannot be guessed. */
  @Unique()
  @Property({ type: 'string', length: 32 })
  code!: string

  @ManyToOne(() => Organization, { deleteRule: 'cascade', nullable: true })
  organization?: Organization | null

  /** The long URL the link stands for (an out-of-band invitation URL with its `oob` parameter). */
  @Property({ type: 'text' })
  targetUrl!: string

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date()
}
