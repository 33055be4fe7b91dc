/**
 * The HTTP status of a failed Kubernetes API call: client-node's ApiException carries it as `code`, some
 * errors as `statusCode`. Shared by the API's Kubernetes runtime and the operator.
 */
export function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown }
  if (typeof code === 'number') return code
  if (typeof statusCode === 'number') return statusCode
  return undefined
}
