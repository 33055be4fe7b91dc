import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { User } from './user.entity'
import { UsersRepository } from './users.repository'

/** People with an account: the user entity and its repository (auth signs them up; no routes of its own yet). */
export const usersModule: ApiModule = {
  name: 'users',
  controllers: [],
  entities: [User],
  bindings: new ContainerModule(({ bind }) => {
    bind(UsersRepository).toSelf().inSingletonScope()
  }),
}
