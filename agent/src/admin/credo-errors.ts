import { ClassValidationError, CredoError, RecordDuplicateError, RecordNotFoundError } from '@credo-ts/core'
import { DidCommProblemReportError, MessageSendingError } from '@credo-ts/didcomm'
import { ConflictError, IdplaneError, InvalidInputError, InvalidStateError, UpstreamError } from '@idplane/common'

import { AnonCredsError } from '../anoncreds'

/** Longest reason passed on from a Credo error (its message names the problem; a JSON dump is cut). */
const MAX_REASON_LENGTH = 1000

/**
 * Credo's record state check, the one way it refuses a step in the wrong state (`Credential record is in invalid
 * state done. Valid states are: offer-received.`, DID Exchange's `... is in invalid state ... to create ...`,
 * `Connection record is not ready to be used. ... found invalid state ...`). Credo has no class for it.
 */
const STATE_REFUSAL = /\bin invalid state\b|\bfound invalid state\b/

/**
 * Credo's refusal of an invitation this agent holds already (`An out of band record with invitation <id> has already
 * been received. Invitations should have a unique id.`): the invitation's state, a 409 as the contract says, not the
 * request's fault.
 */
const ALREADY_RECEIVED = /^An out of band record with invitation \S+ has already been received\b/

/**
 * Credo's refusal of a format the exchange's message does not carry (`No attachment found for service jsonld`, when
 * an accept names a format the offer or request has not): the caller's request is wrong, the exchange is not.
 */
const FORMAT_NOT_IN_MESSAGE = /^No attachment found for service (\S+)/

/**
 * The platform error for the Credo errors whose meaning does not depend on the call: a step the record's state
 * forbids (409), a problem the protocol reported (409, the exchange cannot take the step as it stands), an invitation
 * received before (409), a message that could not be delivered (502, the other agent), a format the exchange does not
 * carry (400; the exchange is left as it was). Undefined for anything else.
 */
export function toCredoRefusal(error: unknown): IdplaneError | undefined {
  if (error instanceof DidCommProblemReportError) return new ConflictError(reasonOf(error), { cause: error })
  if (error instanceof MessageSendingError) {
    return new UpstreamError(`The message could not be delivered to the other agent: ${reasonOf(error)}`, {
      cause: error,
    })
  }
  if (error instanceof CredoError && STATE_REFUSAL.test(error.message)) {
    return new InvalidStateError(reasonOf(error), { cause: error })
  }
  if (error instanceof CredoError && ALREADY_RECEIVED.test(error.message)) {
    return new ConflictError(reasonOf(error), { cause: error })
  }
  const misnamedFormat = error instanceof CredoError ? FORMAT_NOT_IN_MESSAGE.exec(error.message)?.[1] : undefined
  if (misnamedFormat) {
    return new InvalidInputError(
      `${reasonOf(error)}: the exchange's message carries no ${misnamedFormat} format; name only the formats it carries, or none`,
      [],
      { cause: error },
    )
  }
  return undefined
}

/** Whose fault a failed protocol step is: the request body's (`input`, 400) or the exchange's as it stands (409). */
export type StepFailure = 'input' | 'state'

/**
 * Runs one step of a protocol (an offer, accepting a request, receiving an invitation) and turns what Credo or a
 * format service throws into the caller's 4xx with the reason, prefixed with what failed: a format service's
 * exception is about the offer, request or credentials at hand, never a reason for a 500 (issue 23, item 8).
 * Errors the error handler maps by themselves pass through, and so do failures of the agent's own storage (a 500:
 * someone must act).
 */
export async function protocolStep<T>(failure: StepFailure, action: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw asStepFailure(error, failure, action)
  }
}

/** Errors with a status of their own, passed through as they are by protocolStep. */
function passesThrough(error: unknown): boolean {
  return (
    error instanceof IdplaneError ||
    error instanceof RecordNotFoundError ||
    error instanceof RecordDuplicateError ||
    error instanceof ClassValidationError ||
    isStorageFailure(error)
  )
}

/**
 * Whether a holder step failed in a format service (the credentials, the request or the offer at hand, including
 * an AnonCreds refusal), rather than for the record's state, a missing record, the agent's storage or delivery.
 */
export function isFormatFailure(error: unknown): boolean {
  if (error instanceof AnonCredsError) return true
  return !passesThrough(error) && toCredoRefusal(error) === undefined
}

/** The error protocolStep throws for `error` (exported for the unit test). */
export function asStepFailure(error: unknown, failure: StepFailure, action: string): unknown {
  if (passesThrough(error)) return error
  const refusal = toCredoRefusal(error)
  if (refusal) return refusal
  const reason = `${action}: ${reasonOf(error)}`
  return failure === 'input'
    ? new InvalidInputError(reason, [], { cause: error })
    : new ConflictError(reason, { cause: error })
}

/**
 * A failure of the agent's database under Credo's storage (the adapter's `Error saving record` with the driver's
 * error as cause, or a driver error itself): SQLSTATE codes are five characters.
 */
export function isStorageFailure(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return true
    current = current.cause
  }
  return false
}

export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.length > MAX_REASON_LENGTH ? `${message.slice(0, MAX_REASON_LENGTH)}…` : message
}
