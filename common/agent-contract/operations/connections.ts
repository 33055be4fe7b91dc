import type {
  ConnectionQuery,
  ConnectionRecordJson,
  CreateInvitationRequest,
  CreatedInvitation,
  ReceiveInvitationRequest,
  ReceiveInvitationUrlRequest,
  ReceivedInvitation,
} from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

/** Out-of-band invitations and the connection records they lead to (field formats: docs/agent.md). */
export const CONNECTION_OPERATIONS = operationsByName({
  createInvitation: defineOperation({
    name: 'createInvitation',
    method: 'POST',
    path: '/oob/create-invitation',
    message: 'Invitation created',
    body: shape<CreateInvitationRequest>(),
    result: shape<CreatedInvitation>(),
    summary: 'Creates an out-of-band invitation',
    errors: {
      400: 'options that cannot be combined, a malformed key, message or attachment',
      404: 'recipientKey or invitationDid is not of this wallet',
      409: 'the recipient key already serves another DID or invitation of this wallet',
    },
  }),
  receiveInvitationUrl: defineOperation({
    name: 'receiveInvitationUrl',
    method: 'POST',
    path: '/oob/receive-invitation-url',
    message: 'Invitation received',
    body: shape<ReceiveInvitationUrlRequest>(),
    result: shape<ReceivedInvitation>(),
    summary: 'Receives (and by default accepts) the invitation an URL carries or leads to',
    errors: {
      400: 'the URL holds or leads to no invitation, or the invitation cannot be accepted (an unresolvable DID)',
      409: 'the invitation was received before, or its connection cannot be reused',
    },
  }),
  receiveInvitation: defineOperation({
    name: 'receiveInvitation',
    method: 'POST',
    path: '/oob/receive-invitation',
    message: 'Invitation received',
    body: shape<ReceiveInvitationRequest>(),
    result: shape<ReceivedInvitation>(),
    summary: 'Receives (and by default accepts) an invitation given as JSON',
    errors: {
      400: 'not an out-of-band invitation, or it cannot be accepted (an unresolvable DID)',
      409: 'the invitation was received before, or its connection cannot be reused',
    },
  }),
  listConnections: defineOperation({
    name: 'listConnections',
    method: 'GET',
    path: '/connections',
    query: shape<ConnectionQuery>(),
    result: shape<ConnectionRecordJson[]>(),
    summary: 'The connection records of this wallet, filtered',
  }),
  getConnection: defineOperation({
    name: 'getConnection',
    method: 'GET',
    path: '/connections/:connectionId',
    result: shape<ConnectionRecordJson>(),
    summary: 'One connection record',
    errors: { 404: 'no such connection' },
  }),
  acceptConnectionRequest: defineOperation({
    name: 'acceptConnectionRequest',
    method: 'POST',
    path: '/connections/:connectionId/accept-request',
    message: 'Connection request accepted',
    result: shape<ConnectionRecordJson>(),
    summary: 'Responder: answers a DID Exchange request that waits for it',
    errors: { 404: 'no such connection', 409: 'no request waits on the connection' },
  }),
  deleteConnection: defineOperation({
    name: 'deleteConnection',
    method: 'DELETE',
    path: '/connections/:connectionId',
    message: 'Connection deleted',
    result: shape<{ id: string }>(),
    summary: 'Removes the connection record from this wallet (the other side is not told)',
    errors: { 404: 'no such connection' },
  }),
})
