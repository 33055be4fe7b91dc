import { Kms } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'
import sodium from 'libsodium-wrappers'

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
 * the agent's CPU at benchmark load), for the handful of keys a connection uses; a key seen the first time is converted
 * by libsodium, which gives the same answer for every valid key. The conversion is a pure function of
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
    return { ...converted.remembered(x, () => convertedByLibsodium(x) ?? convert.call(this)) }
  }
}

/**
 * The conversion by libsodium (WebAssembly), about ten times cheaper than Credo's in JavaScript for a key seen the
 * first time (each new connection's keys). Undefined before libsodium is ready, or for a key libsodium refuses (not a
 * valid point), which Credo's conversion then answers as before.
 */
function convertedByLibsodium(x: string): X25519Jwk | undefined {
  if (typeof sodium.crypto_sign_ed25519_pk_to_curve25519 !== 'function') return undefined
  try {
    const publicKey = sodium.crypto_sign_ed25519_pk_to_curve25519(Buffer.from(x, 'base64url'))
    return Kms.X25519PublicJwk.fromPublicKey(publicKey).jwk
  } catch {
    return undefined
  }
}
