/**
 * Credo objects as the envelope's `data` carries them: records and credentials serialize through their toJSON;
 * plain objects pass through. (The envelope itself is written by admin-routes.ts.)
 */
export function toJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJson)
  const withToJson = value as { toJSON?: () => unknown } | null
  if (withToJson && typeof withToJson.toJSON === 'function') return withToJson.toJSON()
  return value
}
