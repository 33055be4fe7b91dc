import { ContainerModule, type Container } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { REVOCATION_SETUP } from '../cred-defs/revocation-setup'
import { RevocationRegistry } from './revocation-registry.entity'
import { RevocationRegistriesRepository } from './revocation-registries.repository'
import { RevocationRegistries } from './revocation-registries.service'
import { revocationsConfig } from './revocations.config'

/**
 * AnonCreds revocation registries on the API side (issue 25 item 3): the registries of revocable credential
 * definitions (the first made by the definition job through REVOCATION_SETUP, the next ones before the active one is
 * full) and the atomic allocation of their indices to offers. Declared before the credentials module, whose offers
 * allocate and whose revoke and publish routes publish through the organization's agent.
 */
export const revocationsModule: ApiModule = {
  name: 'revocations',
  controllers: [],
  entities: [RevocationRegistry],
  config: revocationsConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(RevocationRegistriesRepository).toSelf().inSingletonScope()
    bind(RevocationRegistries).toSelf().inSingletonScope()
    bind(REVOCATION_SETUP).toService(RevocationRegistries)
  }),
  stop: (container: Container) => container.get(RevocationRegistries).stop(),
}
