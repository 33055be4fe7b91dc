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
  ready ??= sodium.ready
  await ready
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

/** Authcrypt: the recipient learns (and can check) which key sent it. */
export function sealAuthenticated(
  data: Uint8Array,
  nonce: Uint8Array,
  recipientPublicKey: Uint8Array,
  sender: X25519KeyPair,
): Uint8Array {
  return sodium.crypto_box_easy(data, nonce, recipientPublicKey, sender.privateKey)
}

/** @throws {Error} when the box was not made by `senderPublicKey` for this recipient, or was altered */
export function openAuthenticated(
  encrypted: Uint8Array,
  nonce: Uint8Array,
  senderPublicKey: Uint8Array,
  recipient: X25519KeyPair,
): Uint8Array {
  return sodium.crypto_box_open_easy(encrypted, nonce, senderPublicKey, recipient.privateKey)
}

export function randomNonce(): Uint8Array {
  return sodium.randombytes_buf(BOX_NONCE_BYTES)
}
