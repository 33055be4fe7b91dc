import { Kms } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

/**
 * Credo computes a public key's fingerprint (multicodec prefix and key bytes in base58, `z6Mk...`) on every read of
 * `PublicJwk.fingerprint`: for the sender's and each recipient's key of every DIDComm message it packs or unpacks, and
 * for each key of every peer DID document it builds, in JavaScript (base58 is quadratic in the key's length). A
 * connection uses a handful of keys, and the fingerprint depends only on the key's type and its public key material,
 * so it is kept per type and material (bounded). In the profile the getter was 0.8-0.9 % of an agent's busy time
 * (docs/benchmarks.md, "Credo's key management checks built once").
 *
 * Installed once per process on Credo's class (there is no option for it); a Credo without the getter is left alone.
 * The change belongs in Credo (the fingerprint kept on the key, whose material does not change).
 */
export function rememberFingerprints(prototype: object = Kms.PublicJwk.prototype): void {
  const descriptor = inheritedDescriptor(prototype, 'fingerprint')
  const compute = descriptor?.get
  if (!compute || (compute as { [INSTALLED]?: true })[INSTALLED]) return
  const byType = new WeakMap<object, BoundedMap<string, string>>()
  const remembering = Object.assign(
    function (this: PublicJwkInternals): string {
      const type = this.jwk?.constructor
      const material = materialOf(this.jwk?.jwk)
      if (typeof type !== 'function' || material === undefined) return compute.call(this) as string
      let fingerprints = byType.get(type)
      if (!fingerprints) byType.set(type, (fingerprints = new BoundedMap(MAX_KEYS_PER_TYPE)))
      return fingerprints.remembered(material, () => compute.call(this) as string)
    },
    { [INSTALLED]: true as const },
  )
  Object.defineProperty(prototype, 'fingerprint', { ...descriptor, get: remembering })
}

const INSTALLED = Symbol.for('idplane.fingerprintMemo')
const MAX_KEYS_PER_TYPE = 2000

interface PublicJwkInternals {
  /** The typed key (Ed25519PublicJwk, P256PublicJwk, ...), whose `jwk` is the JSON Web Key. */
  jwk?: { constructor: unknown; jwk?: Record<string, unknown> }
}

/** A property's descriptor on the object or the nearest of its prototypes that has it. */
function inheritedDescriptor(object: object | null, name: string): PropertyDescriptor | undefined {
  for (; object; object = Object.getPrototypeOf(object) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(object, name)
    if (descriptor) return descriptor
  }
  return undefined
}

/**
 * The public key material of a JSON Web Key, as one string: `x` (OKP), `x` and `y` (EC), `n` and `e` (RSA). The
 * type (curve included) is the class's. Undefined when a member is not a string, which leaves the key uncached.
 */
function materialOf(jwk: Record<string, unknown> | undefined): string | undefined {
  if (!jwk) return undefined
  const members = jwk.kty === 'RSA' ? [jwk.n, jwk.e] : jwk.kty === 'EC' ? [jwk.x, jwk.y] : [jwk.x]
  return members.every((member) => typeof member === 'string') ? members.join('.') : undefined
}
