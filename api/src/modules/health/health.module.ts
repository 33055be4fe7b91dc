import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { HealthController } from './health.controller'

export const healthModule: ApiModule = {
  name: 'health',
  controllers: [HealthController],
  bindings: new ContainerModule(({ bind }) => {
    bind(HealthController).toSelf().inSingletonScope()
  }),
}
