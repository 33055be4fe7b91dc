import { stateOrder } from '../../infra/records/record-order'

/**
 * Order of an OID4VCI issuance session's states (Credo's OpenId4VcIssuanceSessionState, in its order), for applying
 * agent events that arrive late, twice or out of order. A batch or multi-credential offer alternates between
 * CredentialRequestReceived and CredentialsPartiallyIssued: one rank, so the newer report of the two wins.
 */
export const ISSUANCE_SESSION_STATE_RANK: Readonly<Record<string, number>> = {
  OfferCreated: 1,
  OfferUriRetrieved: 2,
  AuthorizationInitiated: 3,
  AuthorizationGranted: 4,
  AccessTokenRequested: 5,
  AccessTokenCreated: 6,
  CredentialRequestReceived: 7,
  CredentialsPartiallyIssued: 7,
  Completed: 8,
  Error: 8,
}

export const TERMINAL_ISSUANCE_SESSION_STATES: readonly string[] = ['Completed', 'Error']

export const ISSUANCE_SESSION_ORDER = stateOrder(ISSUANCE_SESSION_STATE_RANK, TERMINAL_ISSUANCE_SESSION_STATES)
