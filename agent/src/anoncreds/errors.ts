import { InvalidInputError } from '@idplane/common'

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
