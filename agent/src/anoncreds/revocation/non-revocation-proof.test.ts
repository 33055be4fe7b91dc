/**
 * Our prover's non-revocation proof against our verifier's tau list, on the anoncreds-rs credential of the test
 * vectors (its r_credential and witness were made by anoncreds-rs): valid before revocation, invalid against the
 * status list after revocation, still valid against the earlier status list.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { R } from './bn254'
import { EncodingError, parseG2, parseScalar } from './encoding'
import { readNonRevocationCredential, readRevocationPublicKey } from './keys'
import { initNonRevocationProof, readNonRevocationProof, tauList } from './non-revocation-proof'
import { revocationRegistryDefinitionOf, statusListOf, updateRevocationStatusList } from './registry'

const dir = path.join(__dirname, '../../../../test/fixtures/anoncreds-revocation')
const fixture = (name: string) => JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8'))

const credDefFixture = fixture('anoncreds-credential-definition')
const registry = fixture('anoncreds-revocation-registry-definition')
const credential = fixture('anoncreds-legacy-credential')
const statusList = { ...fixture('anoncreds-revocation-status-list'), revRegDefId: 'rr' }
const key = readRevocationPublicKey(credDefFixture.credentialDefinition.value.revocation, 'revocation')
// The published credential is the issuer's output: the holder's processing adds the request's vr_prime.
const issued = readNonRevocationCredential(credential.signature.r_credential, 'r_credential')
const vrPrime = parseScalar(
  fixture('anoncreds-credential-request').credentialRequestMetadata.link_secret_blinding_data.vr_prime,
  'vr',
)
const rCred = { ...issued, vrPrimePrime: (issued.vrPrimePrime + vrPrime) % R }
const witness = parseG2(credential.witness.omega, 'omega')
const definition = revocationRegistryDefinitionOf(registry.revocationRegistryDefinition, 'definition')

function accumulatorOf(list: unknown) {
  const { accumulator } = statusListOf(list, 'list')
  if (!accumulator) throw new Error('the status list has no accumulator')
  return accumulator
}

function hash(parts: Uint8Array[]): bigint {
  const h = createHash('sha256')
  for (const part of parts) h.update(part)
  return BigInt('0x' + h.digest('hex'))
}

/** Proves against `proverList`, verifies against `verifierList`; true when the verifier's tau list matches. */
function proveAndVerify(proverList: unknown, verifierList: unknown): boolean {
  const proverAccumulator = accumulatorOf(proverList)
  const m2Tilde = 123456789n << 200n
  const init = initNonRevocationProof(key, rCred, proverAccumulator, witness, m2Tilde)
  const nonce = Uint8Array.of(1, 2, 3)
  const cHash = hash([...init.tauBytes, ...init.cListBytes, nonce])
  const json = init.finalize(cHash)
  const proof = readNonRevocationProof(JSON.parse(JSON.stringify(json)), 'proof')
  // The primary proof's m2 response, whose residue is the credential's m2.
  const m2Response = m2Tilde + cHash * rCred.m2
  const accumulator = accumulatorOf(verifierList)
  const taus = tauList(key, accumulator, definition.accumulatorKey, proof.xList, proof.cList, m2Response, cHash)
  return hash([...taus, ...init.cListBytes, nonce]) === cHash
}

describe('non-revocation proof, our prover and verifier', () => {
  const revoked = updateRevocationStatusList({
    credentialDefinition: credDefFixture.credentialDefinition,
    revocationRegistryDefinition: registry.revocationRegistryDefinition,
    revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
    revocationStatusList: statusList,
    revoked: [rCred.i],
    timestamp: 20,
  })

  it('writes the anoncreds-rs JSON shape', () => {
    const init = initNonRevocationProof(key, rCred, accumulatorOf(statusList), witness, 5n)
    const json = init.finalize(7n)
    expect(Object.keys(json)).toEqual(['x_list', 'c_list'])
    expect(Object.keys(json.x_list)).toEqual([
      'rho',
      'r',
      'r_prime',
      'r_prime_prime',
      'r_prime_prime_prime',
      'o',
      'o_prime',
      'm',
      'm_prime',
      't',
      't_prime',
      's',
      'c',
    ])
    expect(Object.keys(json.c_list)).toEqual(['e', 'd', 'a', 'g', 'w', 's', 'u'])
  })

  it('verifies before revocation', () => {
    expect(proveAndVerify(statusList, statusList)).toBe(true)
  })

  it('marks the index revoked and moves the accumulator', () => {
    expect(revoked.revocationList[rCred.i]).toBe(1)
    expect(revoked.currentAccumulator).not.toBe(statusList.currentAccumulator)
    expect(Object.keys(revoked)).toEqual([
      'revRegDefId',
      'issuerId',
      'revocationList',
      'currentAccumulator',
      'timestamp',
    ])
  })

  it('fails against the status list after revocation (the witness no longer fits)', () => {
    expect(proveAndVerify(revoked, revoked)).toBe(false)
  })

  it('still verifies against the status list of an interval before the revocation', () => {
    expect(proveAndVerify(statusList, statusList)).toBe(true)
  })

  it('un-revoking restores the accumulator exactly', () => {
    const restored = updateRevocationStatusList({
      credentialDefinition: credDefFixture.credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      revocationStatusList: revoked,
      issued: [rCred.i],
    })
    expect(restored.currentAccumulator).toBe(statusList.currentAccumulator)
  })

  it('refuses malformed proofs with a typed error, not a crash', () => {
    expect(() => readNonRevocationProof({ x_list: {}, c_list: {} }, 'p')).toThrow(EncodingError)
    expect(() => readNonRevocationProof(null, 'p')).toThrow(TypeError)
  })
})
