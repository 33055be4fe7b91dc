import { type AgentContext, Kms } from '@credo-ts/core'

import { checkKmsOptionsOnce } from './kms-option-checks'

/** Credo's API as shipped, and a subclass whose prototype carries the checks built once: the same calls to both. */
class CheckedOnce extends Kms.KeyManagementApi {}
checkKmsOptionsOnce(CheckedOnce.prototype)

const METHODS = ['sign', 'verify', 'encrypt', 'decrypt', 'randomBytes'] as const

interface Call {
  backend: string
  method: string
  options: unknown
}

/**
 * A backend at the edge of this unit test: it records what it is asked and answers by method. `keys` are the key
 * ids it holds; `supports` says which operations it takes.
 */
function backend(name: string, keys: string[], supports: (operation: Kms.KmsOperation) => boolean, calls: Call[]) {
  const answer = (method: string) => (_context: AgentContext, options: unknown) => {
    calls.push({ backend: name, method, options })
    return method === 'randomBytes' ? new Uint8Array([1, 2, 3]) : Promise.resolve({ answeredBy: name, method })
  }
  return {
    backend: name,
    isOperationSupported: (_context: AgentContext, operation: Kms.KmsOperation) => supports(operation),
    getPublicKey: (_context: AgentContext, keyId: string) =>
      Promise.resolve(keys.includes(keyId) ? ({ kty: 'OKP', crv: 'Ed25519', x: 'AA' } as Kms.KmsJwkPublic) : null),
    sign: answer('sign'),
    verify: answer('verify'),
    encrypt: answer('encrypt'),
    decrypt: answer('decrypt'),
    randomBytes: answer('randomBytes'),
  } as unknown as Kms.KeyManagementService
}

/** Both APIs over the same two backends: `first` supports everything but holds no key; `second` holds `key-2`. */
function both() {
  const calls: Call[] = []
  const config = new Kms.KeyManagementModuleConfig({
    backends: [backend('first', [], () => true, calls), backend('second', ['key-2'], () => true, calls)],
  })
  const context = { config: { logger: { debug() {}, trace() {} } } } as unknown as AgentContext
  return {
    calls,
    stock: new Kms.KeyManagementApi(config, context) as unknown as Record<string, (options: unknown) => unknown>,
    checked: new CheckedOnce(config, context) as unknown as Record<string, (options: unknown) => unknown>,
  }
}

/** What a call did: its answer or its error's message, and what the backends were asked. */
async function outcome(
  api: Record<string, (options: unknown) => unknown>,
  calls: Call[],
  method: string,
  options: unknown,
) {
  calls.length = 0
  try {
    return { answer: await api[method](options), calls: [...calls] }
  } catch (error) {
    return { error: (error as Error).message, type: (error as Error).constructor.name, calls: [...calls] }
  }
}

const data = new Uint8Array([1, 2, 3])
const signature = new Uint8Array(64)
const CASES: [method: string, options: unknown][] = [
  ['sign', { keyId: 'key-2', algorithm: 'EdDSA', data }],
  ['sign', { keyId: 'key-2', algorithm: 'EdDSA', data, backend: 'first' }],
  ['sign', { keyId: 'key-2', algorithm: 'EdDSA', data, backend: '' }],
  ['sign', { keyId: 'unknown', algorithm: 'EdDSA', data }],
  ['sign', { keyId: 'key-2', algorithm: 'none', data }],
  ['sign', { keyId: 'key-2', algorithm: 'EdDSA', data, backend: 7 }],
  ['sign', { keyId: 'key-2', algorithm: 'EdDSA', data, backend: 'absent' }],
  ['sign', { keyId: 'key-2', algorithm: 'EdDSA', data, extra: 'dropped' }],
  ['sign', undefined],
  ['verify', { key: 'key-2', algorithm: 'EdDSA', data, signature }],
  ['verify', { key: { keyId: 'key-2' }, algorithm: 'EdDSA', data, signature }],
  ['verify', { key: { publicJwk: { kty: 'OKP', crv: 'Ed25519', x: 'AA' } }, algorithm: 'EdDSA', data, signature }],
  ['verify', { key: 'key-2', algorithm: 'EdDSA', data }],
  ['encrypt', { key: 'key-2', data, encryption: { algorithm: 'XSALSA20-POLY1305' } }],
  ['encrypt', { key: { keyId: 'key-2' }, data, encryption: { algorithm: 'A256GCM' } }],
  ['encrypt', { key: { keyId: 'key-2' }, data, encryption: { algorithm: 'unknown' } }],
  ['decrypt', { key: 'key-2', encrypted: data, decryption: { algorithm: 'XSALSA20-POLY1305', iv: data } }],
  ['decrypt', { key: { keyId: 'key-2' }, encrypted: data, decryption: { algorithm: 'A256GCM', iv: data, tag: data } }],
  ['decrypt', { key: 'key-2', encrypted: 'not bytes', decryption: { algorithm: 'A256GCM' } }],
  ['randomBytes', { length: 32 }],
  ['randomBytes', { length: 32, backend: 'second' }],
  ['randomBytes', { length: -1 }],
  ['randomBytes', { length: 32, backend: 7 }],
]

describe('checkKmsOptionsOnce', () => {
  it("replaces Credo 0.6's five hot methods, whose source reads as expected", () => {
    for (const method of METHODS) {
      expect(Object.prototype.hasOwnProperty.call(CheckedOnce.prototype, method)).toBe(true)
      expect(CheckedOnce.prototype[method]).not.toBe(Kms.KeyManagementApi.prototype[method])
    }
    // The others stay Credo's.
    expect(Object.prototype.hasOwnProperty.call(CheckedOnce.prototype, 'createKey')).toBe(false)
  })

  it.each(CASES)('%s answers as Credo does: %j', async (method, options) => {
    const { calls, stock, checked } = both()
    const expected = await outcome(stock, calls, method, options)
    const actual = await outcome(checked, calls, method, options)
    expect(actual).toEqual(expected)
  })

  it('passes the backend the options without the backend name, and answers random bytes at once', async () => {
    const { calls, checked } = both()
    await checked.sign({ keyId: 'key-2', algorithm: 'EdDSA', data, backend: 'second', extra: 1 })
    expect(calls).toEqual([
      { backend: 'second', method: 'sign', options: { keyId: 'key-2', algorithm: 'EdDSA', data } },
    ])
    // Credo's randomBytes is not async; neither is its stand-in.
    expect(checked.randomBytes({ length: 3 })).toEqual(new Uint8Array([1, 2, 3]))
  })

  it('leaves a method whose source it does not know as it is', () => {
    class Changed extends Kms.KeyManagementApi {
      public override async sign(options: Kms.KmsSignOptions & { backend?: string }) {
        return super.sign(options)
      }
    }
    const own = Changed.prototype.sign
    checkKmsOptionsOnce(Changed.prototype)
    expect(Changed.prototype.sign).toBe(own)
    // An inherited method that reads as Credo's is replaced on the subclass.
    expect(Object.prototype.hasOwnProperty.call(Changed.prototype, 'verify')).toBe(true)
  })
})
