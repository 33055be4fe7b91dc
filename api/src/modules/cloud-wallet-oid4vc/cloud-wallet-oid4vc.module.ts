import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { areOidcControllersServed } from '../oid4vc/oid4vc.config'
import { WalletOpenId4VcController } from './wallet-openid4vc.controller'
import { WalletOpenId4VcService } from './wallet-openid4vc.service'

/**
 * The cloud wallet as an OpenID4VC holder (extension, issue 29 item 5): resolve and accept credential offers, list and
 * delete the credentials, resolve and answer authorization requests with the holder's choice, and the wallet's x509
 * trust anchors, all in the caller's tenant of the base wallet. Mounted with the other OpenID4VC routes
 * (HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false), when agents, the base wallet's included, start with OpenID4VC.
 */
export const cloudWalletOid4vcModule: ApiModule = {
  name: 'cloud-wallet-oid4vc',
  controllers: [WalletOpenId4VcController],
  isMounted: areOidcControllersServed,
  bindings: new ContainerModule(({ bind }) => {
    bind(WalletOpenId4VcService).toSelf().inSingletonScope()
    bind(WalletOpenId4VcController).toSelf().inSingletonScope()
  }),
}
