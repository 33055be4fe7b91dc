import { ConflictError, UnavailableError } from '@idplane/common'

/** A signed request bound to an earlier state of its DID: a replay, or a race between two writes of one DID. */
export class StaleRequestError extends ConflictError {}

/** The ledger's head does not match its signed anchor: no write may extend (and re-anchor) what was changed. */
export class LedgerWritesRefusedError extends UnavailableError {}
