import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { areOidcControllersServed } from '../oid4vc/oid4vc.config'
import { X509Controller } from './x509.controller'
import { X509Service } from './x509.service'

/**
 * x509 certificates of organizations (issue 29), kept by each organization's agent: behind the spec's
 * HIDE_EXPERIMENTAL_OIDC_CONTROLLERS flag with the OpenID4VC modules (oid4vc.config.ts).
 */
export const x509Module: ApiModule = {
  name: 'x509',
  controllers: [X509Controller],
  isMounted: areOidcControllersServed,
  bindings: new ContainerModule(({ bind }) => {
    bind(X509Service).toSelf().inSingletonScope()
    bind(X509Controller).toSelf().inSingletonScope()
  }),
}
