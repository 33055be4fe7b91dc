import { stateOrder } from './record-order'

/** DID Exchange states as Credo writes them on a connection record (both roles). */
export const CONNECTION_STATES = [
  'start',
  'invitation-sent',
  'invitation-received',
  'request-sent',
  'request-received',
  'response-sent',
  'response-received',
  'abandoned',
  'completed',
] as const

/** The state a connection waits in for `POST .../accept` (an invitation made with `autoAcceptConnection: false`). */
export const AWAITING_ACCEPT_STATE = 'request-received'

/**
 * Progress of a connection: each step of the exchange ranks above the one before, whichever side the record is
 * on; `completed` and `abandoned` are final.
 */
export const CONNECTION_ORDER = stateOrder(
  {
    start: 0,
    'invitation-sent': 1,
    'invitation-received': 1,
    'request-sent': 2,
    'request-received': 2,
    'response-sent': 3,
    'response-received': 3,
    completed: 4,
    abandoned: 4,
  },
  ['completed', 'abandoned'],
)
