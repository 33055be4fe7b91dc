import path from 'node:path'

import { type AgentContext, Kms } from '@credo-ts/core'

/**
 * Credo's key management API checks the options of every call with `zWithBackend(schema)`, which builds
 * `z.object({ backend: z.optional(z.string()) })` and its intersection with the method's schema on each call, then
 * parses the intersection. For the five calls every DIDComm message and signature makes (sign, verify, encrypt,
 * decrypt, random bytes) that was 4-5 % of an agent's main thread in the profile (docs/benchmarks.md, "Credo's key
 * management checks built once"). Here those five methods check the same options against the same Credo schema,
 * built once, and the backend name with a type test; the call then goes where Credo's method sends it (the named
 * backend, or the one holding the key). Options either check refuses go to Credo's own method, which refuses them
 * with its own error, so callers see no difference. The change belongs in Credo (build the schemas once, at module
 * level).
 *
 * A method is replaced only when its source still reads as Credo 0.6's (its schema and its way of choosing the
 * backend); a Credo that changed either keeps its own method. Installed once per process on the prototype passed
 * (the tests pass a subclass's, to compare both).
 */
export function checkKmsOptionsOnce(prototype: object = Kms.KeyManagementApi.prototype): void {
  const methods = prototype as Record<string | symbol, unknown>
  if (Object.prototype.hasOwnProperty.call(methods, INSTALLED)) return
  methods[INSTALLED] = true
  const optionsDirectory = credoKmsOptionsDirectory()
  if (!optionsDirectory) return
  for (const route of ROUTES) {
    const original = methods[route.method]
    if (typeof original !== 'function' || !readsAsKnown(original, route)) continue
    const schema = credoSchema(optionsDirectory, route)
    if (!schema) continue
    const keyIdOf = route.keyIdOf
    methods[route.method] = keyIdOf
      ? async function (this: KeyManagementApiInternals, options: Options): Promise<unknown> {
          const checked = checkedOptions(schema, options)
          if (!checked) return (original as Method).call(this, options)
          const operation = route.operation(options)
          const keyId = checked.backend ? undefined : keyIdOf(options)
          const kms =
            keyId === undefined
              ? this.getKms(this.agentContext, checked.backend, operation)
              : (await this.getKmsForOperationAndKeyId(this.agentContext, keyId, operation)).kms
          return (kms[route.method] as KmsMethod).call(kms, this.agentContext, checked.kmsOptions)
        }
      : function (this: KeyManagementApiInternals, options: Options): unknown {
          const checked = checkedOptions(schema, options)
          if (!checked) return (original as Method).call(this, options)
          const kms = this.getKms(this.agentContext, checked.backend, route.operation(options))
          return (kms[route.method] as KmsMethod).call(kms, this.agentContext, checked.kmsOptions)
        }
  }
}

const INSTALLED = Symbol.for('idplane.kmsOptionChecks')

type Options = Record<string, unknown>
type Method = (this: unknown, options: Options) => unknown
type KmsMethod = (agentContext: AgentContext, options: unknown) => unknown
type Backend = Record<string, unknown>

interface KeyManagementApiInternals {
  agentContext: AgentContext
  getKms(agentContext: AgentContext, backend: string | undefined, operation: object): Backend
  getKmsForOperationAndKeyId(agentContext: AgentContext, keyId: string, operation: object): Promise<{ kms: Backend }>
}

interface Schema {
  safeParse(value: unknown): { success: true; data: Options } | { success: false }
}

interface Route {
  method: 'sign' | 'verify' | 'encrypt' | 'decrypt' | 'randomBytes'
  /** The schema's module under Credo's `build/modules/kms/options` and its export. */
  file: string
  schema: string
  /** The operation Credo asks the backends about. */
  operation(options: Options): object
  /**
   * The key id Credo picks the backend by when no backend is named (undefined: the first backend supporting the
   * operation); absent for a method that never looks a key up (random bytes, which is not async either).
   */
  keyIdOf?(options: Options): string | undefined
  /** What Credo's method must contain, white space left out, for this route to stand in for it. */
  expected: readonly string[]
}

/** A key given as a string is a key id; an object (a JWK, or `{ keyId }` in encrypt and decrypt) is not looked up. */
const keyIdIn = (options: Options) => (typeof options.key === 'string' ? options.key : undefined)
const keyAgreementOf = (options: Options) => (options.key as { keyAgreement?: unknown } | undefined)?.keyAgreement

/** How verify, encrypt and decrypt choose a backend: by a named backend or a key object, else by the key id. */
const BY_BACKEND_OR_KEY_OBJECT = 'backend||typeofoptions.key!=="string"'

/** Encrypt and decrypt: the same route but for the name of their algorithm's member. */
function keyAgreementRoute(method: 'encrypt' | 'decrypt', member: 'encryption' | 'decryption'): Route {
  const file = method === 'encrypt' ? 'KmsEncryptOptions' : 'KmsDecryptOptions'
  return {
    method,
    file,
    schema: `z${file}`,
    operation: (options) => ({ operation: method, [member]: options[member], keyAgreement: keyAgreementOf(options) }),
    keyIdOf: keyIdIn,
    expected: ['zWithBackend', `z${file}`, BY_BACKEND_OR_KEY_OBJECT, 'options.key,operation'],
  }
}

const ROUTES: readonly Route[] = [
  {
    method: 'sign',
    file: 'KmsSignOptions',
    schema: 'zKmsSignOptions',
    operation: (options) => ({ operation: 'sign', algorithm: options.algorithm }),
    keyIdOf: (options) => options.keyId as string,
    expected: ['zWithBackend', 'zKmsSignOptions', 'backend?this.getKms(', 'options.keyId,operation'],
  },
  {
    method: 'verify',
    file: 'KmsVerifyOptions',
    schema: 'zKmsVerifyOptions',
    operation: (options) => ({ operation: 'verify', algorithm: options.algorithm }),
    keyIdOf: keyIdIn,
    expected: ['zWithBackend', 'zKmsVerifyOptions', BY_BACKEND_OR_KEY_OBJECT, 'options.key,operation'],
  },
  keyAgreementRoute('encrypt', 'encryption'),
  keyAgreementRoute('decrypt', 'decryption'),
  {
    method: 'randomBytes',
    file: 'KmsRandomBytesOptions',
    schema: 'zKmsRandomBytesOptions',
    operation: () => ({ operation: 'randomBytes' }),
    expected: [
      'zWithBackend',
      'zKmsRandomBytesOptions',
      'this.getKms(this.agentContext,backend,{operation:"randomBytes"})',
    ],
  },
]

/**
 * The options as Credo's method would have them after its check: the schema's output (zod drops keys it does not
 * know, `backend` among them) and the backend, which `z.optional(z.string())` allows only as a string or absent.
 * Undefined when either check refuses.
 */
function checkedOptions(schema: Schema, options: Options): { kmsOptions: Options; backend?: string } | undefined {
  const backend: unknown = options?.backend
  if (backend !== undefined && typeof backend !== 'string') return undefined
  const parsed = schema.safeParse(options)
  return parsed.success ? { kmsOptions: parsed.data, backend } : undefined
}

function readsAsKnown(method: object, route: Route): boolean {
  // White space differs where Credo is compiled again (to CommonJS in the tests).
  const source = Function.prototype.toString.call(method).replace(/\s+/g, '')
  return route.expected.every((part) => source.includes(part))
}

/**
 * Credo's own schema object, from the module its KeyManagementApi imports (not in the package's exports, so by
 * path; the module registry hands out the instance Credo loaded). Undefined if Credo moved it.
 */
function credoSchema(optionsDirectory: string, route: Route): Schema | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module outside the package's exports, by path
    const schema = (require(path.join(optionsDirectory, `${route.file}.mjs`)) as Record<string, unknown>)[route.schema]
    return typeof (schema as Schema | undefined)?.safeParse === 'function' ? (schema as Schema) : undefined
  } catch {
    return undefined
  }
}

/** Where Credo keeps its key management option schemas; undefined if Credo cannot be resolved. */
function credoKmsOptionsDirectory(): string | undefined {
  try {
    return path.join(path.dirname(require.resolve('@credo-ts/core/package.json')), 'build/modules/kms/options')
  } catch {
    return undefined
  }
}
