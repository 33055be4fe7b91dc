import { createRequire } from 'node:module'
import path from 'node:path'
// Loaded first, as in the agent: the memo patches the zod of the Credo that is loaded.
import '@credo-ts/core'
import { rememberBackendIntersections } from './backend-intersection-memo'

// Credo's own helper and one of its option schemas, by path: they are not in its package's exports.
const credoRoot = path.dirname(require.resolve('@credo-ts/core/package.json'))
const kmsOptions = path.join(credoRoot, 'build/modules/kms/options')
/* eslint-disable @typescript-eslint/no-require-imports -- modules outside the package's exports, loaded by path */
const { zWithBackend } = require(path.join(kmsOptions, 'backend.mjs')) as { zWithBackend: (schema: Schema) => Schema }
const { zKmsSignOptions } = require(path.join(kmsOptions, 'KmsSignOptions.mjs')) as { zKmsSignOptions: Schema }
// The zod Credo resolves (in these tests its CommonJS entry, as Credo is compiled to CommonJS here).
const { z } = createRequire(path.join(credoRoot, 'package.json'))('zod') as { z: Zod }
/* eslint-enable @typescript-eslint/no-require-imports */

interface Schema {
  and(other: Schema): Schema
  parse(value: unknown): unknown
}
interface Zod {
  object(shape: Record<string, Schema>): Schema
  optional(schema: Schema): Schema
  string(params?: { error: string }): Schema & { min(length: number): Schema }
  number(): Schema
}

const signOptions = { keyId: 'key-1', algorithm: 'EdDSA', data: new Uint8Array([1, 2, 3]) }

describe('rememberBackendIntersections', () => {
  beforeAll(() => rememberBackendIntersections())

  it("hands out one intersection per schema for Credo's zWithBackend, which parses as before", () => {
    const first = zWithBackend(zKmsSignOptions)
    expect(zWithBackend(zKmsSignOptions)).toBe(first)
    expect(first.parse({ ...signOptions, backend: 'node' })).toEqual({ ...signOptions, backend: 'node' })
    expect(first.parse(signOptions)).toEqual(signOptions)
    expect(() => first.parse({ ...signOptions, backend: 7 })).toThrow(/backend/)
    expect(() => first.parse({ ...signOptions, algorithm: 'none' })).toThrow(/algorithm/)
  })

  it('keeps one per left-hand schema', () => {
    const other = z.object({ keyId: z.string() })
    expect(zWithBackend(other)).not.toBe(zWithBackend(zKmsSignOptions))
    expect(zWithBackend(other)).toBe(zWithBackend(other))
  })

  it('leaves every other intersection to zod', () => {
    const left = z.object({ keyId: z.string() })
    const required = () => z.object({ backend: z.string() })
    const checked = () => z.object({ backend: z.optional(z.string().min(3)) })
    const wider = () => z.object({ backend: z.optional(z.string()), extra: z.optional(z.number()) })
    const ownError = () => z.object({ backend: z.optional(z.string({ error: 'a backend name' })) })
    for (const make of [required, checked, wider, ownError]) expect(left.and(make())).not.toBe(left.and(make()))
    expect(() => left.and(ownError()).parse({ keyId: 'k', backend: 1 })).toThrow(/a backend name/)
    expect(() => left.and(required()).parse({ keyId: 'k' })).toThrow(/backend/)
    expect(() => left.and(checked()).parse({ keyId: 'k', backend: 'ab' })).toThrow()
    expect(left.and(checked()).parse({ keyId: 'k', backend: 'abc' })).toEqual({ keyId: 'k', backend: 'abc' })
  })

  it('still works detached, and installing twice changes nothing', () => {
    const left = z.object({ keyId: z.string() })
    const and = left.and
    const intersection = and(z.object({ backend: z.optional(z.string()) }))
    rememberBackendIntersections()
    expect(left.and(z.object({ backend: z.optional(z.string()) }))).toBe(intersection)
    expect(intersection.parse({ keyId: 'k', backend: 'b' })).toEqual({ keyId: 'k', backend: 'b' })
  })
})
