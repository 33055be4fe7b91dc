import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { areOidcControllersServed } from '../oid4vc/oid4vc.config'
import { Oid4vpController } from './oid4vp.controller'
import { Oid4vpMetrics } from './oid4vp-metrics'
import { Oid4vpService } from './oid4vp.service'
import { VerificationSessionRecords } from './verification-session-records'
import { VerificationSessionRecord } from './verification-session.entity'
import { VerificationSessionsRepository } from './verification-sessions.repository'

/**
 * OpenID4VC verification (issue 29): OID4VP verifiers, verification templates and presentation sessions through each
 * organization's agent, behind HIDE_EXPERIMENTAL_OIDC_CONTROLLERS with the oid4vc module; its verification sessions
 * kept from the agent's `openid4vc-verification` events (state events with the disclosed claims, and webhooks).
 */
export const oid4vpModule: ApiModule = {
  name: 'oid4vp',
  controllers: [Oid4vpController],
  isMounted: areOidcControllersServed,
  entities: [VerificationSessionRecord],
  agentEventHandlers: [{ kind: 'openid4vc-verification', handler: VerificationSessionRecords }],
  bindings: new ContainerModule(({ bind }) => {
    bind(VerificationSessionsRepository).toSelf().inSingletonScope()
    bind(VerificationSessionRecords).toSelf().inSingletonScope()
    bind(Oid4vpMetrics)
      .toDynamicValue((context) => new Oid4vpMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
    bind(Oid4vpService).toSelf().inSingletonScope()
    bind(Oid4vpController).toSelf().inSingletonScope()
  }),
}
