import type { CONNECTION_OPERATIONS } from '@idplane/common/agent-contract/operations/connections'

import type { AdminController } from './admin-routes'
import { CONNECTION_RECORDS, type ConnectionsService } from './connections.service'
import {
  ConnectionQueryDto,
  CreateInvitationDto,
  ReceiveInvitationDto,
  ReceiveInvitationUrlDto,
} from './dto/connections.dto'

export function connectionsController(connections: ConnectionsService): AdminController<typeof CONNECTION_OPERATIONS> {
  return {
    createInvitation: {
      body: CreateInvitationDto,
      handle: ({ scope, body }) => connections.createInvitation(scope, body),
    },
    receiveInvitationUrl: {
      body: ReceiveInvitationUrlDto,
      handle: ({ scope, body }) => connections.receiveInvitationUrl(scope, body),
    },
    receiveInvitation: {
      body: ReceiveInvitationDto,
      handle: ({ scope, body }) => connections.receiveInvitation(scope, body),
    },
    listConnections: {
      query: ConnectionQueryDto,
      handle: ({ scope, query }) => CONNECTION_RECORDS.list(scope, query),
    },
    getConnection: { handle: ({ scope, params }) => CONNECTION_RECORDS.get(scope, params.connectionId) },
    acceptConnectionRequest: {
      handle: ({ scope, params }) => connections.acceptRequest(scope, params.connectionId),
    },
    deleteConnection: { handle: ({ scope, params }) => CONNECTION_RECORDS.remove(scope, params.connectionId) },
  }
}
