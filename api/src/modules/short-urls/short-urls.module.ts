import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
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
  router: shortUrlRoutes,
}
