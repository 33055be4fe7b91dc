import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

/**
 * Credo's key management API checks the options of every call (sign, verify, encrypt, decrypt, random bytes, ...)
 * against `schema.and(z.object({ backend: z.optional(z.string()) }))`, built anew for each call: a new object schema
 * and a new intersection, whose parser zod then builds on the first parse. Every DIDComm message packed or unpacked
 * and every signature pays it: 113-145 µs of CPU per call against 60-87 µs with the intersection kept (zod was
 * 4-4.6 % of an agent's CPU in the profile). The intersection depends only on the schema and on that fixed `backend`
 * object, so it is kept per schema (weakly) and handed out again; an `and` with anything else goes to zod as before.
 * zod schemas are immutable (every method returns a new schema), so sharing one is safe.
 *
 * Since kms-option-checks.ts the five calls every message makes (sign, verify, encrypt, decrypt, random bytes) check
 * against schemas built once and no longer come here; the others (create, import, delete a key, a public key) still
 * do, a few times per connection.
 *
 * Patched on the copy of zod Credo uses (credoZod). Only prototypes that already carry `and` are patched: Credo's
 * option schemas are built when its modules load, before buildAgent installs this. Measured by `npm run
 * bench:kms-options` (docs/benchmarks.md, "Credo's key management option check and libsodium's randomness"). The
 * change belongs in Credo (build the schemas once, at module level, in KeyManagementApi).
 */
export function rememberBackendIntersections(): void {
  const zod = credoZod()
  if (zod) patchCopy(zod)
}

const INSTALLED = Symbol.for('idplane.backendIntersectionMemo')

interface ZodLike {
  _zod?: { def?: Record<string, unknown> }
}
type And = (this: ZodLike, other: unknown) => unknown
type ZodModule = Record<string, unknown>

function patchCopy(zod: ZodModule): void {
  const kept = new WeakMap<object, unknown>()
  for (const value of Object.values(zod)) {
    if (typeof value !== 'function' || typeof value.prototype !== 'object' || value.prototype === null) continue
    const prototype = value.prototype as object
    const descriptor = Object.getOwnPropertyDescriptor(prototype, 'and')
    // Ours already (a second install, or another module registry's in the tests): left as it is.
    if (!descriptor || (descriptor.get as { [INSTALLED]?: true } | undefined)?.[INSTALLED]) continue
    // zod installs members as getters that bind on first read (a nullish receiver answers the raw method).
    const raw: unknown = descriptor.value ?? descriptor.get?.call(null)
    if (typeof raw !== 'function') continue
    const and = raw as And
    const remembering: And = function (this: ZodLike, other: unknown) {
      if (!isBackendOnly(other)) return and.call(this, other)
      let intersection = kept.get(this)
      if (intersection === undefined) kept.set(this, (intersection = and.call(this, other)))
      return intersection
    }
    // As zod's own members: bound to the schema on first read, so a detached `schema.and` still works.
    const get = Object.assign(
      function (this: ZodLike | null | undefined) {
        if (this == null) return remembering
        const bound = remembering.bind(this)
        Object.defineProperty(this, 'and', { configurable: true, writable: true, value: bound })
        return bound
      },
      { [INSTALLED]: true as const },
    )
    Object.defineProperty(prototype, 'and', {
      configurable: true,
      get,
      set(this: ZodLike, replacement: unknown) {
        Object.defineProperty(this, 'and', { configurable: true, writable: true, value: replacement })
      },
    })
  }
}

/**
 * `z.object({ backend: z.optional(z.string()) })` exactly: each definition has only the fields that schema has (no
 * custom error, no catchall, no checks, no coercion), and the object no other key.
 */
function isBackendOnly(schema: unknown): boolean {
  const object = (schema as ZodLike | null)?._zod?.def
  if (object?.type !== 'object' || !hasOnly(object, ['type', 'shape'])) return false
  const shape = object.shape as Record<string, ZodLike> | undefined
  if (!shape || Object.keys(shape).length !== 1) return false
  const optional = shape.backend?._zod?.def
  if (optional?.type !== 'optional' || !hasOnly(optional, ['type', 'innerType'])) return false
  const inner = (optional.innerType as ZodLike | undefined)?._zod?.def
  return inner?.type === 'string' && hasOnly(inner, ['type'])
}

/** No field beyond `allowed` with a value (an empty check list counts as none). */
function hasOnly(def: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.entries(def).every(
    ([key, value]) =>
      allowed.includes(key) || value === undefined || (key === 'checks' && Array.isArray(value) && value.length === 0),
  )
}

/**
 * The zod Credo uses here, already loaded: its ES module entry where Credo runs as ES modules (the agent process), its
 * CommonJS entry where Credo was compiled to CommonJS (the tests). Loading the other entry would only cost start-up
 * time (about 100 ms of CPU) for a copy nothing uses. Nothing when Credo is not loaded yet.
 */
function credoZod(): ZodModule | undefined {
  let credo: unknown
  let manifest: string
  try {
    credo = require.cache[require.resolve('@credo-ts/core')]?.exports
    manifest = createRequire(require.resolve('@credo-ts/core/package.json')).resolve('zod/package.json')
  } catch {
    return undefined
  }
  if (credo === undefined) return undefined
  const asEsModules = (credo as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module'
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> }).exports
  const entry = (exports?.['.'] as Record<string, unknown> | undefined)?.[asEsModules ? 'import' : 'require']
  if (typeof entry !== 'string') return undefined
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy Credo loaded, by its path (cached)
  return require(path.join(path.dirname(manifest), entry)) as ZodModule
}
