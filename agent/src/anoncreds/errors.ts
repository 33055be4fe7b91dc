import { InvalidInputError } from '@idplane/common'

import { MathError } from './math'

/**
 * Why an AnonCreds operation refused its input. `malformed`: an object does not have the anoncreds-rs shape;
 * `invalid`: it has the shape but fails a cryptographic check (tampered proof, wrong nonce, another key);
 * `unsupported`: a feature this build does not carry yet (revocation).
 */
export type AnonCredsErrorKind = 'malformed' | 'invalid' | 'unsupported'

/**
 * The library's one error type. It is an InvalidInputError so a caller that lets it escape answers 400,
 * never 500; `kind` and `path` say what was wrong without leaking secret values.
 */
export class AnonCredsError extends InvalidInputError {
  public readonly kind: AnonCredsErrorKind
  public readonly path: string | undefined

  public constructor(kind: AnonCredsErrorKind, message: string, path?: string, options?: { cause?: unknown }) {
    super(message, path ? [{ field: path, message }] : [], options)
    this.kind = kind
    this.path = path
  }
}

export function malformed(path: string, message: string): AnonCredsError {
  return new AnonCredsError('malformed', `${path}: ${message}`, path)
}

export function invalid(message: string, path?: string): AnonCredsError {
  return new AnonCredsError('invalid', message, path)
}

/**
 * Runs an operation's arithmetic; a MathError (a value with no inverse, which only crafted input produces)
 * becomes AnonCredsError('invalid') so nothing but AnonCredsError leaves the library for bad input.
 */
export function guarded<T>(operation: string, action: () => T): T {
  try {
    return action()
  } catch (error) {
    if (error instanceof MathError)
      throw new AnonCredsError('invalid', `${operation}: ${error.message}`, undefined, { cause: error })
    throw error
  }
}
