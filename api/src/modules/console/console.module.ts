import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { consoleConfig } from './console.config'
import { consoleRoutes } from './console.router'

/**
 * The web console (issue 26): the single-page app built into CONSOLE_DIR, served as static files at /console. Only
 * files are served; the app talks to the public API like any client. Nothing is read at start-up.
 */
export const consoleModule: ApiModule = {
  name: 'console',
  controllers: [],
  config: consoleConfig,
  bindings: new ContainerModule(() => undefined),
  router: consoleRoutes,
}
