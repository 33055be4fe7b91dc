import { randomFillSync } from 'node:crypto'
import { createRequire } from 'node:module'

import { BoundedMap } from '@idplane/common'
import sodium from 'libsodium-wrappers'

/**
 * The DIDComm v1 (Aries RFC 0019) key wrapping: XSALSA20-POLY1305 with ECDH-HSALSA20, i.e. libsodium's
 * crypto_box (authcrypt) and crypto_box_seal (anoncrypt) over X25519 keys. Ed25519 keys are converted to
 * their X25519 form, as Askar does, because DIDComm v1 addresses recipients by Ed25519 verkeys.
 */
export interface X25519KeyPair {
  publicKey: Uint8Array
  privateKey: Uint8Array
}

let ready: Promise<void> | undefined

export async function sodiumReady(): Promise<void> {
  ready ??= sodium.ready.then(drawRandomnessInBulk)
  await ready
}

/** 32-bit words of randomness kept for libsodium, refilled from Node's CSPRNG when spent. */
const RANDOM_WORDS = 1024

/**
 * libsodium's JavaScript build asks its host for randomness one byte at a time (each byte of a nonce or an ephemeral
 * key is a call of `getRandomValue`, of whose 32 bits it keeps 8), and on Node the host answers each call with
 * `crypto.randomBytes(4)`: 190 µs of CPU for a 24-byte nonce, about 1 % of an agent's CPU in a profile of DIDComm
 * exchanges. The same CSPRNG fills a buffer of words instead, 4 KiB per call (4 µs for a nonce). Installed on the
 * libsodium module libsodium-wrappers loads, whose WebAssembly reads `getRandomValue` from it at every draw.
 */
function drawRandomnessInBulk(): void {
  const entry = createRequire(require.resolve('libsodium-wrappers')).resolve('libsodium')
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy libsodium-wrappers loaded, by its path
  const libsodium = require(entry) as LibsodiumHost
  if (libsodium.getRandomValue?.[BULK]) return
  const words = new Uint32Array(RANDOM_WORDS)
  let next = RANDOM_WORDS
  libsodium.getRandomValue = Object.assign(
    (): number => {
      if (next === RANDOM_WORDS) {
        randomFillSync(words)
        next = 0
      }
      const word = words[next]
      // Each word is handed out once.
      words[next++] = 0
      return word
    },
    { [BULK]: true as const },
  )
}

const BULK = Symbol.for('idplane.libsodiumBulkRandomness')

interface LibsodiumHost {
  getRandomValue?: (() => number) & { [BULK]?: true }
}

export function x25519FromEd25519Seed(seed: Uint8Array): X25519KeyPair {
  const signing = sodium.crypto_sign_seed_keypair(seed)
  return {
    publicKey: sodium.crypto_sign_ed25519_pk_to_curve25519(signing.publicKey),
    privateKey: sodium.crypto_sign_ed25519_sk_to_curve25519(signing.privateKey),
  }
}

export function x25519FromPrivateScalar(privateKey: Uint8Array): X25519KeyPair {
  return { publicKey: sodium.crypto_scalarmult_base(privateKey), privateKey }
}

export const BOX_NONCE_BYTES = 24

/** Anoncrypt: only the recipient can open it, and it reveals no sender. */
export function sealAnonymous(data: Uint8Array, recipientPublicKey: Uint8Array): Uint8Array {
  return sodium.crypto_box_seal(data, recipientPublicKey)
}

/** @throws {Error} when the box was not sealed for this key pair */
export function openAnonymous(encrypted: Uint8Array, recipient: X25519KeyPair): Uint8Array {
  return sodium.crypto_box_seal_open(encrypted, recipient.publicKey, recipient.privateKey)
}

/**
 * The key crypto_box derives from a pair of keys (X25519, then HSalsa20), kept per pair: the authcrypted content key
 * of every message between two parties of a connection is boxed with the same one, and deriving it is nearly all of
 * a box's cost. Kept under the two public keys (ours and theirs, which name our private key), so no private key is a
 * map key. The derived key is as sensitive as the private key it comes from, which the key store keeps opened in
 * memory too.
 */
const SHARED_KEYS_KEPT = 1000
const sharedKeys = new BoundedMap<string, Uint8Array>(SHARED_KEYS_KEPT)

function sharedKey(own: X25519KeyPair, theirPublicKey: Uint8Array): Uint8Array {
  const pair = `${Buffer.from(own.publicKey).toString('base64')} ${Buffer.from(theirPublicKey).toString('base64')}`
  return sharedKeys.remembered(pair, () => sodium.crypto_box_beforenm(theirPublicKey, own.privateKey))
}

/** Authcrypt: the recipient learns (and can check) which key sent it. */
export function sealAuthenticated(
  data: Uint8Array,
  nonce: Uint8Array,
  recipientPublicKey: Uint8Array,
  sender: X25519KeyPair,
): Uint8Array {
  return sodium.crypto_box_easy_afternm(data, nonce, sharedKey(sender, recipientPublicKey))
}

/** @throws {Error} when the box was not made by `senderPublicKey` for this recipient, or was altered */
export function openAuthenticated(
  encrypted: Uint8Array,
  nonce: Uint8Array,
  senderPublicKey: Uint8Array,
  recipient: X25519KeyPair,
): Uint8Array {
  return sodium.crypto_box_open_easy_afternm(encrypted, nonce, sharedKey(recipient, senderPublicKey))
}

export function randomNonce(): Uint8Array {
  return sodium.randombytes_buf(BOX_NONCE_BYTES)
}
