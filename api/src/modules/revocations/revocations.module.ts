import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { RevocationRegistry } from './revocation-registry.entity'
import { RevocationRegistriesRepository } from './revocation-registries.repository'

/**
 * AnonCreds revocation on the API side (issue 25 item 3): the organizations' revocation registries and the atomic
 * allocation of their indices. The routes (revocable definitions, revoke, publish) are not here yet: `revocable:
 * true` still answers 501 (docs/decisions.md, "Revocation registries in the API").
 */
export const revocationsModule: ApiModule = {
  name: 'revocations',
  controllers: [],
  entities: [RevocationRegistry],
  bindings: new ContainerModule(({ bind }) => {
    bind(RevocationRegistriesRepository).toSelf().inSingletonScope()
  }),
}
