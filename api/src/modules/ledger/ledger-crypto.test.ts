import { randomBytes } from 'node:crypto'
import sodium from 'libsodium-wrappers'
import { canonicalJson, ledgerSigningBytes } from '@idplane/common/agent-contract/ledger'
import { decodeBase58, encodeBase58 } from '@idplane/common/base58'
import { didFromVerkey, Ed25519Signer, transactionHash, verifyEd25519 } from './ledger-crypto'
import { x25519FromVerkey } from './ledger-did-document'
import { GENESIS_PREV_HASH } from './ledger-crypto'

const fields = {
  seqNo: 2,
  type: 'SCHEMA',
  authorDid: 'Th7MpTaRZVRYnPiabds81Y',
  objectId: 'Th7MpTaRZVRYnPiabds81Y:2:a:1.0',
  payload: { version: '1.0', name: 'a', attrNames: ['x'] },
  signature: 'sig',
  prevHash: GENESIS_PREV_HASH,
  txnTime: '2026-11-24T12:00:00.000Z',
}

describe('ledger crypto', () => {
  it('hashes the canonical JSON of the fields, whatever order the payload keys come in', () => {
    const reordered = { ...fields, payload: { attrNames: ['x'], name: 'a', version: '1.0' } }
    expect(transactionHash(reordered)).toBe(transactionHash(fields))
    expect(transactionHash(fields)).toMatch(/^[0-9a-f]{64}$/)
    expect(transactionHash({ ...fields, seqNo: 3 })).not.toBe(transactionHash(fields))
    expect(transactionHash({ ...fields, payload: { ...fields.payload, name: 'b' } })).not.toBe(transactionHash(fields))
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    )
  })

  it('signs and verifies Ed25519 as libsodium does, with Indy DIDs from the first 16 verkey bytes', async () => {
    await sodium.ready
    const seed = randomBytes(32)
    const signer = new Ed25519Signer(seed)
    const reference = sodium.crypto_sign_seed_keypair(seed)
    expect(signer.verkey).toBe(encodeBase58(reference.publicKey))
    expect(signer.did).toBe(encodeBase58(reference.publicKey.subarray(0, 16)))
    expect(didFromVerkey(decodeBase58(signer.verkey) ?? Buffer.alloc(0))).toBe(signer.did)
    const message = ledgerSigningBytes({ namespace: 'idplane', type: 'SCHEMA', authorDid: signer.did, payload: {} })
    const signature = signer.sign(message)
    expect(signature).toBe(encodeBase58(sodium.crypto_sign_detached(message, reference.privateKey)))
    expect(verifyEd25519(message, signature, signer.verkey)).toBe(true)
  })

  it('refuses a signature by another key, over other bytes, or malformed', () => {
    const signer = new Ed25519Signer(randomBytes(32))
    const other = new Ed25519Signer(randomBytes(32))
    const message = Buffer.from('message')
    const signature = signer.sign(message)
    expect(verifyEd25519(message, signature, other.verkey)).toBe(false)
    expect(verifyEd25519(Buffer.from('messagf'), signature, signer.verkey)).toBe(false)
    expect(verifyEd25519(message, 'not-base58-0OIl', signer.verkey)).toBe(false)
    expect(verifyEd25519(message, signature.slice(0, 20), signer.verkey)).toBe(false)
    expect(verifyEd25519(message, signature, 'short')).toBe(false)
  })

  it('converts a verkey to the X25519 key libsodium derives', async () => {
    await sodium.ready
    const keys = sodium.crypto_sign_seed_keypair(randomBytes(32))
    expect(await x25519FromVerkey(encodeBase58(keys.publicKey))).toBe(
      encodeBase58(sodium.crypto_sign_ed25519_pk_to_curve25519(keys.publicKey)),
    )
  })
})
