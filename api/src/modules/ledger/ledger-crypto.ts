import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { decodeBase58, encodeBase58 } from '@idplane/common/base58'
import { canonicalJson } from '@idplane/common/agent-contract/ledger'

// DER headers that wrap a raw 32-byte Ed25519 seed (PKCS#8) or public key (SPKI) for node:crypto.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

export const GENESIS_PREV_HASH = '0'.repeat(64)

/** The fields a transaction's hash covers (requested_by_org_id is not one of them). */
export interface HashedTransactionFields {
  seqNo: number
  type: string
  authorDid: string
  objectId: string | null
  payload: unknown
  signature: string
  prevHash: string
  txnTime: string
  /** The author's binding; absent (null) on transactions written before bindings, whose hash does not cover it. */
  lastSeqNo?: number | null
}

/** hex sha256 of the canonical JSON of the transaction's fields: what chains each transaction to the previous. */
export function transactionHash(fields: HashedTransactionFields): string {
  const { seqNo, type, authorDid, objectId, payload, signature, prevHash, txnTime } = fields
  // canonicalJson drops an undefined member: a transaction without a binding hashes as it did before bindings.
  const lastSeqNo = fields.lastSeqNo ?? undefined
  const canonical = canonicalJson({
    seqNo,
    type,
    authorDid,
    objectId,
    payload,
    signature,
    prevHash,
    txnTime,
    lastSeqNo,
  })
  return createHash('sha256').update(canonical, 'utf8').digest('hex')
}

/** An unqualified Indy DID from a verkey: base58 of its first 16 bytes. */
export function didFromVerkey(verkey: Buffer): string {
  return encodeBase58(verkey.subarray(0, 16))
}

/** The 32 bytes of a base58 Ed25519 verkey, or undefined when it is not one. */
export function verkeyBytes(verkey: string): Buffer | undefined {
  const bytes = decodeBase58(verkey)
  return bytes?.length === 32 ? bytes : undefined
}

/** Whether `signatureBase58` is the Ed25519 signature of `message` by `verkeyBase58`; false for any malformed part. */
export function verifyEd25519(message: Buffer, signatureBase58: string, verkeyBase58: string): boolean {
  const key = verkeyBytes(verkeyBase58)
  const signature = decodeBase58(signatureBase58)
  if (!key || signature?.length !== 64) return false
  try {
    const publicKey = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, key]), format: 'der', type: 'spki' })
    return verify(null, message, publicKey, signature)
  } catch {
    // A point that is not on the curve: not a valid key, hence not a valid signature.
    return false
  }
}

/** An Ed25519 key pair from a 32-byte seed, with its verkey and DID in Indy's base58 forms. */
export class Ed25519Signer {
  public readonly verkey: string
  public readonly did: string
  private readonly privateKey: KeyObject

  public constructor(seed: Buffer) {
    if (seed.length !== 32) throw new Error('An Ed25519 seed is 32 bytes')
    this.privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    })
    const spki = createPublicKey(this.privateKey).export({ format: 'der', type: 'spki' })
    const raw = spki.subarray(SPKI_ED25519_PREFIX.length)
    this.verkey = encodeBase58(raw)
    this.did = didFromVerkey(raw)
  }

  /** The base58 signature of `message`. */
  public sign(message: Buffer): string {
    return encodeBase58(sign(null, message, this.privateKey))
  }
}
