import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import { Logger } from '@idplane/common'
import type { ApiModule } from '../../infra/api-module'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { IssuanceSessionRecords } from './issuance-session-records'
import { IssuanceSessionRecord } from './issuance-session.entity'
import { IssuanceSessionsRepository } from './issuance-sessions.repository'
import { areOidcControllersServed, oid4vcConfig } from './oid4vc.config'
import { Oid4vcController } from './oid4vc.controller'
import { Oid4vcMetrics } from './oid4vc-metrics'
import { Oid4vcService } from './oid4vc.service'

/**
 * OpenID4VC issuance (issue 29): OID4VCI issuers, credential templates and offers through each organization's agent,
 * and its issuance sessions kept from the agent's `openid4vc-issuance` events (state events and webhooks).
 * Owns the spec's HIDE_EXPERIMENTAL_OIDC_CONTROLLERS flag, which the oid4vp and x509 modules follow: while it is
 * true (the default) none of their routes is served or documented and agents start without OpenID4VC.
 */
export const oid4vcModule: ApiModule = {
  name: 'oid4vc',
  config: oid4vcConfig,
  controllers: [Oid4vcController],
  isMounted: areOidcControllersServed,
  entities: [IssuanceSessionRecord],
  agentEventHandlers: [{ kind: 'openid4vc-issuance', handler: IssuanceSessionRecords }],
  bindings: new ContainerModule(({ bind }) => {
    bind(IssuanceSessionsRepository).toSelf().inSingletonScope()
    bind(IssuanceSessionRecords).toSelf().inSingletonScope()
    bind(Oid4vcMetrics)
      .toDynamicValue((context) => new Oid4vcMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
    bind(Oid4vcService).toSelf().inSingletonScope()
    bind(Oid4vcController).toSelf().inSingletonScope()
  }),
  start: (container) => {
    const config = container.get<Config>(TOKENS.Config)
    const log = container.get(Logger).child({ component: 'oid4vc' })
    // The spec's flag decides what the explorer shows: say at start-up which way it went.
    if (areOidcControllersServed(config)) {
      log.info('Serving the OpenID4VC and x509 routes; agents start with OpenID4VC', {
        hideExperimentalOidcControllers: false,
      })
    } else {
      log.info(
        'OpenID4VC and x509 routes hidden: not served, not in the explorer (HIDE_EXPERIMENTAL_OIDC_CONTROLLERS)',
        {
          hideExperimentalOidcControllers: true,
        },
      )
    }
  },
}
