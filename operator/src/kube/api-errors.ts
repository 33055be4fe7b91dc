import { statusCodeOf } from '@idplane/common/kube-api-errors'

export const isNotFound = (error: unknown): boolean => statusCodeOf(error) === 404

/** 409: a stale resourceVersion (Conflict) or a name already taken (AlreadyExists). */
export const isConflict = (error: unknown): boolean => statusCodeOf(error) === 409

/** A short description of a failed call for logs; client-node's own message embeds headers and the body. */
export function describeApiError(error: unknown): string {
  const code = statusCodeOf(error)
  const body = typeof error === 'object' && error !== null ? (error as { body?: unknown }).body : undefined
  const message =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error)
  return code === undefined ? message : `${code}: ${message}`
}
