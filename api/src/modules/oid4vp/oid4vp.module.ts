import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { areOidcControllersServed } from '../oid4vc/oid4vc.config'
import { Oid4vpController } from './oid4vp.controller'
import { Oid4vpService } from './oid4vp.service'

/**
 * OpenID4VC verification (issue 29): OID4VP verifiers, verification templates and presentation sessions through each
 * organization's agent, behind HIDE_EXPERIMENTAL_OIDC_CONTROLLERS with the oid4vc module.
 */
export const oid4vpModule: ApiModule = {
  name: 'oid4vp',
  controllers: [Oid4vpController],
  isMounted: areOidcControllersServed,
  bindings: new ContainerModule(({ bind }) => {
    bind(Oid4vpService).toSelf().inSingletonScope()
    bind(Oid4vpController).toSelf().inSingletonScope()
  }),
}
