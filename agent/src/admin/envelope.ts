/** The success envelope every admin route answers with (DESIGN.md, API conventions). */
export interface Envelope<T> {
  statusCode: number
  message: string
  data?: T
}

export function ok<T>(data: T, message = 'OK', statusCode = 200): Envelope<T> {
  return { statusCode, message, data }
}

export function created<T>(data: T, message = 'Created'): Envelope<T> {
  return { statusCode: 201, message, data }
}

/** Credo records serialize through toJSON; plain objects pass through. */
export function toJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJson)
  const withToJson = value as { toJSON?: () => unknown } | null
  if (withToJson && typeof withToJson.toJSON === 'function') return withToJson.toJSON()
  return value
}
