import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { ShortUrl } from './short-url.entity'
import { shortUrlsConfig } from './short-urls.config'
import { shortUrlRoutes } from './short-urls.router'
import { ShortUrlsRepository } from './short-urls.repository'
import { ShortUrls } from './short-urls.service'

/** Short public links to out-of-band invitations (`isShortenUrl`); other modules call ShortUrls.shorten. */
export const shortUrlsModule: ApiModule = {
  name: 'short-urls',
  controllers: [],
  entities: [ShortUrl],
  config: shortUrlsConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(ShortUrlsRepository).toSelf().inSingletonScope()
    bind(ShortUrls).toSelf().inSingletonScope()
  }),
  retention: (container) => {
    const { retentionAfterExpirySeconds } = sectionOf(container.get<Config>(TOKENS.Config), shortUrlsConfig)
    const links = container.get(ShortUrlsRepository)
    return [{ table: 'short_urls', pruneBatch: (limit) => links.pruneExpired(retentionAfterExpirySeconds, limit) }]
  },
  router: shortUrlRoutes,
}
