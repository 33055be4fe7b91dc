/**
 * The holder's blinded link secret: U = S^v' * R_ms^ms mod n, with a proof of knowledge of v' and ms bound to
 * the offer's nonce. Only the link secret is hidden (anoncreds-rs never commits other attributes), but the
 * checks accept what anoncreds-clsignatures allows: any hidden attributes, no committed ones.
 */
import { bigintToBytes, hashToBigint, MathError, modInverse, modPow, modPowFixedBase, randomBits } from '../math'
import { LARGE_MTILDE, LARGE_VPRIME, LARGE_VPRIME_TILDE } from './constants'
import { entry, type PrimaryPublicKey } from './primary-key'

export interface BlindedSecrets {
  u: bigint
  hiddenAttributes: string[]
}

export interface BlindedSecretsProof {
  c: bigint
  vDashCap: bigint
  mCaps: Map<string, bigint>
}

function blindingChallenge(u: bigint, uTilde: bigint, nonce: bigint): bigint {
  return hashToBigint([bigintToBytes(u), bigintToBytes(uTilde), bigintToBytes(nonce)])
}

/** `hidden` maps attribute names (keys of pk.r) to secret values; the proof covers them in sorted order. */
export function blindSecrets(
  publicKey: PrimaryPublicKey,
  hidden: Map<string, bigint>,
  nonce: bigint,
): { blinded: BlindedSecrets; proof: BlindedSecretsProof; vPrime: bigint } {
  const { n, s } = publicKey
  const names = [...hidden.keys()].sort()
  const vPrime = randomBits(LARGE_VPRIME)
  let u = modPowFixedBase(s, vPrime, n)
  // The key's bases, raised in constant time: the hidden values (the link secret) and their blindings are secret.
  for (const name of names) u = (u * modPowFixedBase(entry(publicKey.r, name), entry(hidden, name), n)) % n

  const vDashTilde = randomBits(LARGE_VPRIME_TILDE)
  const mTildes = new Map(names.map((name) => [name, randomBits(LARGE_MTILDE)]))
  let uTilde = modPowFixedBase(s, vDashTilde, n)
  for (const name of names) uTilde = (uTilde * modPowFixedBase(entry(publicKey.r, name), entry(mTildes, name), n)) % n

  const c = blindingChallenge(u, uTilde, nonce)
  const mCaps = new Map(names.map((name) => [name, entry(mTildes, name) + c * entry(hidden, name)]))
  return {
    blinded: { u, hiddenAttributes: names },
    proof: { c, vDashCap: c * vPrime + vDashTilde, mCaps },
    vPrime,
  }
}

/** The issuer's check of the holder's proof (anoncreds-rs refuses to sign when it fails). */
export function verifyBlindedSecrets(
  publicKey: PrimaryPublicKey,
  blinded: BlindedSecrets,
  proof: BlindedSecretsProof,
  nonce: bigint,
): boolean {
  const { n, s } = publicKey
  if (blinded.u <= 0n || blinded.u >= n) return false
  try {
    let uCap = (modPow(modInverse(blinded.u, n), proof.c, n) * modPowFixedBase(s, proof.vDashCap, n)) % n
    for (const name of blinded.hiddenAttributes) {
      const base = publicKey.r.get(name)
      const mCap = proof.mCaps.get(name)
      if (base === undefined || mCap === undefined) return false
      uCap = (uCap * modPow(base, mCap, n)) % n
    }
    return blindingChallenge(blinded.u, uCap, nonce) === proof.c
  } catch (error) {
    // Only crafted values lack an inverse: such input does not verify.
    if (error instanceof MathError) return false
    throw error
  }
}
