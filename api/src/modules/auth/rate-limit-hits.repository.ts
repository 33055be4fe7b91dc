import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { BaseRepository } from '../../infra/db/base.repository'
import type { RateLimitStore } from '../../infra/rate-limit/rate-limit-store'
import { RateLimitHit } from './rate-limit-hit.entity'

/**
 * The rate limiter's store in the database: counters in `rate_limit_hits` (RateLimitHit, this module's entity). One
 * upsert per hit is atomic in PostgreSQL, so concurrent requests on any replica never lose a count. Runs outside
 * the request's transaction on purpose: a hit counts even when the request later fails.
 */
@injectable()
export class RateLimitHitsRepository extends BaseRepository<RateLimitHit> implements RateLimitStore {
  public constructor(em: EntityManager) {
    super(em, RateLimitHit)
  }

  public async increment(key: string, windowStart: Date, amount = 1): Promise<number> {
    const rows = await this.em
      .getConnection()
      .execute<
        { count: number }[]
      >('insert into "rate_limit_hits" ("key", "window_start", "count") values (?, ?, ?) ' + 'on conflict ("key", "window_start") do update set "count" = "rate_limit_hits"."count" + excluded."count" returning "count"', [key, windowStart, amount])
    return Number(rows[0]?.count ?? amount)
  }

  public async deleteWindowsBefore(cutoff: Date): Promise<number> {
    const result = await this.em
      .getConnection()
      .execute<{ affectedRows: number }>('delete from "rate_limit_hits" where "window_start" < ?', [cutoff], 'run')
    return result.affectedRows
  }
}
