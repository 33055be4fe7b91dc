import {
  ConflictError,
  type IdplaneError,
  InvalidInputError,
  NotImplementedError,
  UpstreamError,
} from '@idplane/common'

import { LEDGER_NOT_CONFIGURED, LEDGER_UNREACHABLE } from '../ledger/ledger-client'

/**
 * The admin error for a failed ledger registration, from the reason Credo's registrar or registry state carries:
 * a duplicate is 409, an agent without a ledger 501, an unreachable or failing ledger 502, anything else (unknown
 * issuer, a DID this agent does not hold, a refused write) 400.
 */
export function ledgerFailure(what: string, reason: string): IdplaneError {
  if (/already registered|\(HTTP 409\)/.test(reason))
    return new ConflictError(`The ${what} is already registered differently: ${reason}`)
  if (reason.includes(LEDGER_NOT_CONFIGURED))
    return new NotImplementedError(`Could not register the ${what}: ${reason}`)
  if (reason.includes(LEDGER_UNREACHABLE) || /\(HTTP 5\d\d\)/.test(reason))
    return new UpstreamError(`Could not register the ${what}: ${reason}`)
  return new InvalidInputError(`Could not register the ${what}: ${reason}`, [])
}
