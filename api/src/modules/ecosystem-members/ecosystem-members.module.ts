import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { EcosystemMembersController } from './ecosystem-members.controller'
import { EcosystemMembersRepository } from './ecosystem-members.repository'
import { EcosystemMembersService } from './ecosystem-members.service'

/**
 * Ecosystem members (spec: Ecosystems, `/ecosystem/member*`): the lead lists its ecosystem's organizations,
 * removes them or sets their status, through the state table of the ecosystems module.
 */
export const ecosystemMembersModule: ApiModule = {
  name: 'ecosystem-members',
  controllers: [EcosystemMembersController],
  bindings: new ContainerModule(({ bind }) => {
    bind(EcosystemMembersRepository).toSelf().inSingletonScope()
    bind(EcosystemMembersService).toSelf().inSingletonScope()
    bind(EcosystemMembersController).toSelf().inSingletonScope()
  }),
}
