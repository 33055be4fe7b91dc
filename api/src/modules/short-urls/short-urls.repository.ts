import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { BaseRepository } from '../../infra/db/base.repository'
import { ShortUrl } from './short-url.entity'

/** Short links by code. */
@injectable()
export class ShortUrlsRepository extends BaseRepository<ShortUrl> {
  public constructor(em: EntityManager) {
    super(em, ShortUrl)
  }

  /**
   * Deletes at most `limit` links that expired more than `afterExpirySeconds` ago, first expired first (a
   * retention batch, through the `expires_at` index); links still working stay. Resolves with how many.
   */
  public pruneExpired(afterExpirySeconds: number, limit: number): Promise<number> {
    return this.deleteBatch(
      `"expires_at" < now() - make_interval(secs => ?)`,
      [afterExpirySeconds],
      '"expires_at"',
      limit,
    )
  }
}
