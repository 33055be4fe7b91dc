import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { TailsFile } from './tails-file.entity'
import { tailsFilesConfig } from './tails-files.config'
import { TailsFilesController } from './tails-files.controller'
import { TailsFilesRepository } from './tails-files.repository'
import { TailsFilesService } from './tails-files.service'

/**
 * Tails files of AnonCreds revocation registries, stored by the platform in its database and served publicly by
 * hash (issue 25; docs/decisions.md, "Tails files"). Agents authenticate uploads as they do NYM requests (the ledger
 * module's LedgerRequesters).
 */
export const tailsFilesModule: ApiModule = {
  name: 'tails-files',
  controllers: [TailsFilesController],
  entities: [TailsFile],
  config: tailsFilesConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(TailsFilesRepository).toSelf().inSingletonScope()
    bind(TailsFilesService).toSelf().inSingletonScope()
    bind(TailsFilesController).toSelf().inSingletonScope()
  }),
}
