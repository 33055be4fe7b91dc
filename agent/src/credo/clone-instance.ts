/**
 * A deep copy of a Credo record, message or DID document that keeps every object's class: the same prototypes, own
 * enumerable properties copied recursively, Dates, byte arrays, Maps and Sets copied, shared sub-objects and cycles
 * kept as they were. More than ten times cheaper than Credo's `JsonTransformer.fromJSON` (class-transformer walks
 * decorator metadata, class-validator runs every rule), so caches keep one validated instance and hand out copies.
 *
 * Only for data objects as class-transformer builds them: state in non-enumerable, symbol-keyed or private (`#`)
 * fields, or in internal slots of built-ins other than the ones handled here, would not be copied. `clone-instance.test.ts` and the storage integration test check Credo's record types.
 */
export function cloneInstance<T>(value: T): T {
  return copy(value, new Map()) as T
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value
  const earlier = seen.get(value)
  if (earlier !== undefined) return earlier
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length)
    seen.set(value, out)
    for (let index = 0; index < value.length; index++) out[index] = copy(value[index], seen)
    return out
  }
  if (value instanceof Date) return remember(seen, value, new Date(value.getTime()))
  // Boxed primitives keep their value in an internal slot (Credo boxes DID strings among OOB services).
  if (value instanceof String) return remember(seen, value, Object(value.valueOf()) as object)
  if (value instanceof Number) return remember(seen, value, Object(value.valueOf()) as object)
  if (value instanceof Boolean) return remember(seen, value, Object(value.valueOf()) as object)
  if (value instanceof RegExp) return remember(seen, value, new RegExp(value.source, value.flags))
  if (Buffer.isBuffer(value)) return remember(seen, value, Buffer.from(value))
  if (value instanceof DataView) {
    return remember(
      seen,
      value,
      new DataView(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength)),
    )
  }
  if (ArrayBuffer.isView(value)) {
    // Every typed array's constructor copies another typed array of its kind.
    const TypedArray = value.constructor as new (source: ArrayBufferView) => object
    return remember(seen, value, new TypedArray(value))
  }
  if (value instanceof Map) {
    const out = new Map()
    seen.set(value, out)
    for (const [key, item] of value) out.set(copy(key, seen), copy(item, seen))
    return out
  }
  if (value instanceof Set) {
    const out = new Set()
    seen.set(value, out)
    for (const item of value) out.add(copy(item, seen))
    return out
  }
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>
  seen.set(value, out)
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen)
  return out
}

function remember<T>(seen: Map<object, unknown>, original: object, copied: T): T {
  seen.set(original, copied)
  return copied
}
