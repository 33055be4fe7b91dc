import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'

/**
 * Fixed-window counters kept in the database so that every API replica sees the same count.
 * Rows of past windows are swept by the rate limiter.
 */
@Entity({ tableName: 'rate_limit_hits' })
export class RateLimitHit {
  @PrimaryKey({ type: 'string', length: 400 })
  key!: string

  @PrimaryKey({ type: 'datetime', columnType: 'timestamptz' })
  windowStart!: Date

  @Property({ type: 'integer' })
  count: Opt<number> = 0
}
