import { injectable } from 'inversify'
import { RequestContext, TransactionContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { BaseRepository } from '../../infra/db/base.repository'
import { Organization } from '../orgs/organization.entity'
import { ShortUrl } from './short-url.entity'

/** What a new short link holds; `orgId` is null for a cloud-wallet tenant's link. */
export interface NewShortUrl {
  code: string
  orgId: string | null
  targetUrl: string
  expiresAt: Date
}

/** Short links by code. Reads run on their own (a public route, outside any request's unit of work). */
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

  /**
   * Stores the link in the caller's transaction or request when there is one, so that it commits or rolls back
   * with the invitation it carries; on its own otherwise.
   */
  public async add(fields: NewShortUrl): Promise<ShortUrl> {
    const em = TransactionContext.getEntityManager() ?? RequestContext.getEntityManager() ?? this.em.fork()
    const link = em.create(ShortUrl, {
      code: fields.code,
      organization: fields.orgId === null ? null : em.getReference(Organization, fields.orgId),
      targetUrl: fields.targetUrl,
      expiresAt: fields.expiresAt,
    })
    await em.persist(link).flush()
    return link
  }

  public findByCode(code: string): Promise<ShortUrl | null> {
    return this.em.fork().findOne(ShortUrl, { code })
  }

  public async delete(link: ShortUrl): Promise<void> {
    await this.em.fork().nativeDelete(ShortUrl, { id: link.id })
  }
}
