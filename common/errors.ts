/**
 * The platform's error vocabulary. Services throw these and never know about HTTP; each program has one
 * place that maps them to its transport (api/src/infra/http/error-handler.ts for the API).
 */
export interface FieldError {
  field: string
  message: string
}

export class IdplaneError extends Error {
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** The record does not exist, or belongs to another organization (never leak existence across tenants). */
export class NotFoundError extends IdplaneError {}

/** The record already exists (duplicate name, second spin-up, ...). */
export class ConflictError extends IdplaneError {}

/**
 * The record is still being made (a credential definition whose keys are being generated): a conflict with its
 * state that resolves itself; `retryAfterSeconds` becomes the Retry-After header.
 */
export class InProgressError extends ConflictError {
  public readonly retryAfterSeconds: number

  public constructor(message: string, retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, options)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** The caller is known but lacks the role or the organization permission. */
export class ForbiddenError extends IdplaneError {}

/** The caller could not be identified: missing, malformed, expired or wrongly signed credential. */
export class UnauthenticatedError extends IdplaneError {}

/** The input is malformed; `fields` names each offending field. */
export class InvalidInputError extends IdplaneError {
  public readonly fields: FieldError[]

  public constructor(message: string, fields: FieldError[] = [], options?: { cause?: unknown }) {
    super(message, options)
    this.fields = fields
  }
}

/** A move that the resource's state table forbids (accepting an invitation twice, ...). */
export class InvalidStateError extends IdplaneError {}

/**
 * A request that repeats an earlier one's identity (an `Idempotency-Key`) with other content: neither the earlier
 * answer nor a new action would be right.
 */
export class RequestMismatchError extends IdplaneError {}

/** Too many requests; `retryAfterSeconds` becomes the Retry-After header. */
export class RateLimitedError extends IdplaneError {
  public readonly retryAfterSeconds: number

  public constructor(message: string, retryAfterSeconds: number) {
    super(message)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A dependency (agent, SMTP, AMQP, Kubernetes API) could not be reached or answered badly. */
export class UpstreamError extends IdplaneError {}

/**
 * A dependency the platform supervises refused the connection (an agent restarting after a crash): the request
 * never reached it, so the same request is safe to repeat once it is back. `retryAfterSeconds` becomes the
 * Retry-After header of the 503.
 */
export class UpstreamUnavailableError extends UpstreamError {
  public readonly retryAfterSeconds: number

  public constructor(message: string, retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, options)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/**
 * A dependency the platform runs itself is still starting (the managed base-wallet agent); the same request
 * will succeed later. `retryAfterSeconds` becomes the Retry-After header.
 */
export class UnavailableError extends IdplaneError {
  public readonly retryAfterSeconds: number

  public constructor(message: string, retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, options)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A capability the contract names but this build does not provide yet; never a fake success. */
export class NotImplementedError extends IdplaneError {}

/** Configuration is invalid; the message lists every bad variable by name, never its value. */
export class ConfigError extends IdplaneError {}
