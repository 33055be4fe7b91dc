import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { StatusList, StatusListEntryRow } from './status-list.entity'
import { statusListsConfig } from './status-lists.config'
import { StatusListsController } from './status-lists.controller'
import { StatusListsRepository } from './status-lists.repository'
import { StatusLists } from './status-lists.service'

/**
 * W3C Bitstring Status Lists of JSON-LD credentials (issue 25 item 4): lists per organization, issuer and purpose,
 * index allocation for offers that ask for a status, publication, and the public route serving them. Declared before
 * the credentials module, whose offers allocate and whose revoke route sets bits.
 */
export const statusListsModule: ApiModule = {
  name: 'status-lists',
  controllers: [StatusListsController],
  entities: [StatusList, StatusListEntryRow],
  config: statusListsConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(StatusListsRepository).toSelf().inSingletonScope()
    bind(StatusLists).toSelf().inSingletonScope()
    bind(StatusListsController).toSelf().inSingletonScope()
  }),
}
