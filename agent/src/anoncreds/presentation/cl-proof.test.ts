import { generatePrimeSync } from 'node:crypto'

import { generatePrimeInRange, modInverse, modPow, randomBelow, randomBits } from '../math'
import {
  type ClPredicate,
  type CredentialForProof,
  LINK_SECRET_ATTRIBUTE,
  ProofBuilder,
  ProofBuildError,
  type PrimaryPublicKey,
  type SubProofRequest,
  verifyProof,
} from './cl-proof'
import { fourSquares } from './four-squares'

// A CL key and signature made directly from the RSA factors: enough to exercise the proof maths quickly
// (the oracle tests cover real anoncreds-rs credentials).
function toyIssuer(attrs: string[]) {
  const p = generatePrimeSync(512, { bigint: true })
  const q = generatePrimeSync(512, { bigint: true })
  const n = p * q
  const phi = (p - 1n) * (q - 1n)
  const s = modPow(randomBelow(n), 2n, n)
  const r = new Map<string, bigint>()
  for (const name of [...attrs, LINK_SECRET_ATTRIBUTE]) r.set(name, modPow(s, randomBits(1000), n))
  const pk: PrimaryPublicKey = { n, s, z: modPow(s, randomBits(1000), n), rctxt: modPow(s, randomBits(1000), n), r }
  const sign = (values: Map<string, bigint>) => {
    const m2 = randomBits(256)
    const e = generatePrimeInRange(596, 119)
    const v = (1n << 2723n) | randomBits(2723)
    let denominator = (modPow(s, v, n) * modPow(pk.rctxt, m2, n)) % n
    for (const [name, value] of values) denominator = (denominator * modPow(r.get(name) as bigint, value, n)) % n
    const a = modPow((pk.z * modInverse(denominator, n)) % n, modInverse(e, phi), n)
    return { m2, a, e, v }
  }
  return { pk, sign }
}

describe('CL presentation proof', () => {
  const attrs = ['name', 'age', 'height']
  const issuer = toyIssuer(attrs)
  const linkSecret = randomBits(256)
  const values = new Map<string, bigint>([
    ['name', 123456789n],
    ['age', 30n],
    ['height', 180n],
    [LINK_SECRET_ATTRIBUTE, linkSecret],
  ])
  const credential: CredentialForProof = {
    publicKey: issuer.pk,
    signature: issuer.sign(values),
    values,
    schemaAttrs: attrs,
  }
  const nonce = randomBits(80)
  const predicates: ClPredicate[] = [
    { attrName: 'age', pType: 'GE', value: 18 },
    { attrName: 'age', pType: 'LT', value: 31 },
    { attrName: 'height', pType: 'GT', value: 100 },
    { attrName: 'height', pType: 'LE', value: 180 },
  ]
  const request: SubProofRequest = { revealed: ['name'], predicates }

  function prove(req: SubProofRequest) {
    const builder = new ProofBuilder()
    builder.addSubProof(credential, req)
    return builder.finalize(nonce)
  }

  it('verifies a proof with a revealed attribute and all four predicate types', () => {
    const proof = prove(request)
    const check = verifyProof(
      [{ publicKey: issuer.pk, schemaAttrs: attrs, request, proof: proof.proofs[0] }],
      proof.cHash,
      proof.cList,
      nonce,
    )
    expect(check).toEqual({ valid: true })
  })

  it('rejects another nonce, a changed revealed value and a weaker predicate than requested', () => {
    const proof = prove(request)
    const sub = { publicKey: issuer.pk, schemaAttrs: attrs, request, proof: proof.proofs[0] }
    expect(verifyProof([sub], proof.cHash, proof.cList, nonce + 1n).valid).toBe(false)
    const eqProof = { ...proof.proofs[0].eqProof, revealedAttrs: new Map([['name', 1n]]) }
    expect(
      verifyProof([{ ...sub, proof: { ...proof.proofs[0], eqProof } }], proof.cHash, proof.cList, nonce).valid,
    ).toBe(false)
    const stricter = {
      ...request,
      predicates: [{ attrName: 'age', pType: 'GE', value: 19 } as ClPredicate, ...predicates.slice(1)],
    }
    expect(verifyProof([{ ...sub, request: stricter }], proof.cHash, proof.cList, nonce).valid).toBe(false)
  })

  it('refuses to prove a predicate the value does not meet', () => {
    expect(() => prove({ revealed: [], predicates: [{ attrName: 'age', pType: 'GT', value: 30 }] })).toThrow(
      ProofBuildError,
    )
  })

  it('decomposes integers into four squares', () => {
    for (const delta of [0, 1, 2, 3, 7, 15, 28, 112, 2 ** 31 - 1, 2 ** 32 - 1, 123456789]) {
      const roots = fourSquares(delta)
      expect(roots.reduce((sum, x) => sum + x * x, 0n)).toBe(BigInt(delta))
    }
  })
})
