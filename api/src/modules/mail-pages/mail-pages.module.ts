import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { mailPages } from './mail-pages.router'

/** The HTML pages behind mailed links (verification, invitation); no JSON routes, nothing persisted. */
export const mailPagesModule: ApiModule = {
  name: 'mail-pages',
  controllers: [],
  bindings: new ContainerModule(() => undefined),
  router: mailPages,
}
