import { Kms } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

const MAX_ENTRIES = 1000

type X25519Jwk = ReturnType<Kms.Ed25519PublicJwk['toX25519PublicJwk']>

interface Ed25519PublicJwkInternals {
  jwk: { x?: unknown }
  toX25519PublicJwk(): X25519Jwk
}

let installed = false

/**
 * Remembers the X25519 form of Ed25519 public keys. Credo converts the sender's and each recipient's key on every
 * DIDComm message it packs or unpacks, in JavaScript (a field inversion, about a third of a millisecond each; ~3 % of
 * the agent's CPU at benchmark load), for the handful of keys a connection uses. The conversion is a pure function of
 * the key, so a bounded map by the key's `x` gives the same answer; each call gets its own copy of the JWK.
 * Installed once per process on Credo's class (there is no option for it); a Credo without the method is left alone.
 */
export function cacheX25519Conversions(): void {
  if (installed) return
  const prototype = Kms.Ed25519PublicJwk.prototype as unknown as Ed25519PublicJwkInternals
  const convert = prototype.toX25519PublicJwk
  if (typeof convert !== 'function') return
  installed = true
  const converted = new BoundedMap<string, X25519Jwk>(MAX_ENTRIES)
  prototype.toX25519PublicJwk = function (this: Ed25519PublicJwkInternals): X25519Jwk {
    const x = this.jwk.x
    if (typeof x !== 'string') return convert.call(this)
    let jwk = converted.get(x)
    if (!jwk) {
      jwk = convert.call(this)
      converted.set(x, jwk)
    }
    return { ...jwk }
  }
}
