import { stateOrder } from '../../infra/records/record-order'

/**
 * Order of an OID4VP verification session's states (Credo's OpenId4VcVerificationSessionState, in its order), for
 * applying agent events that arrive late, twice or out of order.
 */
export const VERIFICATION_SESSION_STATE_RANK: Readonly<Record<string, number>> = {
  RequestCreated: 1,
  RequestUriRetrieved: 2,
  ResponseVerified: 3,
  Error: 3,
}

/** The state whose session holds what the holder disclosed. */
export const RESPONSE_VERIFIED = 'ResponseVerified'

export const TERMINAL_VERIFICATION_SESSION_STATES: readonly string[] = [RESPONSE_VERIFIED, 'Error']

export const VERIFICATION_SESSION_ORDER = stateOrder(
  VERIFICATION_SESSION_STATE_RANK,
  TERMINAL_VERIFICATION_SESSION_STATES,
)
