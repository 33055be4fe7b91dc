import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { connectionsConfig } from './connections.config'
import { ConnectionsController } from './connections.controller'
import { ConnectionsService } from './connections.service'
import { ConnectionsRepository } from './connections.repository'
import { ConnectionRecords } from './connection-records'
import { ConnectionMetrics } from './connection-metrics'
import { Connection } from './connection.entity'
import { ConnectionDeletion } from './connection-deletion.entity'

/**
 * Connections (spec: Connections, organization level): invitations through the organization's agent, and the
 * organization's connection records kept from the agent's `connection` events.
 */
export const connectionsModule: ApiModule = {
  name: 'connections',
  config: connectionsConfig,
  controllers: [ConnectionsController],
  entities: [Connection, ConnectionDeletion],
  agentEventHandlers: [{ kind: 'connection', handler: ConnectionRecords }],
  bindings: new ContainerModule(({ bind }) => {
    bind(ConnectionsController).toSelf().inSingletonScope()
    bind(ConnectionsService).toSelf().inSingletonScope()
    bind(ConnectionsRepository).toSelf().inSingletonScope()
    bind(ConnectionRecords).toSelf().inSingletonScope()
    bind(ConnectionMetrics)
      .toDynamicValue((context) => new ConnectionMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
