import type { NextFunction, Request, Response } from 'express'
import { inject, injectable } from 'inversify'
import type { ExpressMiddlewareInterface } from 'routing-controllers'
import { ForbiddenError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { ecosystemsConfig } from './ecosystems.config'

/**
 * The spec's feature flag: while ECOSYSTEM_ENABLED is off, every ecosystem route answers 403 before anything
 * else is looked at (token, input), so a client learns only that the feature is disabled. The routes stay in
 * the OpenAPI document.
 */
@injectable()
export class EcosystemFeatureGate implements ExpressMiddlewareInterface {
  private readonly isEnabled: boolean

  public constructor(@inject(TOKENS.Config) config: Config) {
    this.isEnabled = sectionOf(config, ecosystemsConfig).isEnabled
  }

  public use(_req: Request, _res: Response, next: NextFunction): void {
    if (this.isEnabled) next()
    else next(new ForbiddenError('The ecosystem feature is disabled on this platform (ECOSYSTEM_ENABLED)'))
  }
}
