import {
  ConflictError,
  type IdplaneError,
  InvalidInputError,
  NotImplementedError,
  UpstreamError,
} from '@idplane/common'

import { LEDGER_NOT_CONFIGURED, LEDGER_UNREACHABLE } from '../ledger/ledger-client'

/**
 * The admin error for a failed ledger registration (or read), from the reason Credo's registrar or registry state
 * carries: a duplicate is 409, an agent without a ledger 501, an unreachable or failing ledger 502, anything else
 * (unknown issuer, a DID this agent does not hold, a refused write) 400.
 */
export function ledgerFailure(what: string, reason: string, action = 'register'): IdplaneError {
  if (/already registered|\(HTTP 409\)/.test(reason))
    return new ConflictError(`The ${what} is already registered differently: ${reason}`)
  const message = `Could not ${action} the ${what}: ${reason}`
  if (reason.includes(LEDGER_NOT_CONFIGURED)) return new NotImplementedError(message)
  if (isLedgerUnavailable(reason)) return new UpstreamError(message)
  return new InvalidInputError(message, [])
}

/** The ledger could not be used at all: not configured, unreachable, or failing (5xx). */
export function isLedgerUnavailable(reason: string): boolean {
  return reason.includes(LEDGER_NOT_CONFIGURED) || reason.includes(LEDGER_UNREACHABLE) || /\(HTTP 5\d\d\)/.test(reason)
}
