/**
 * Known answers published by anoncreds-rs and indy-credx (same CL-signatures lineage, same Milagro BN254):
 * test/fixtures/anoncreds-revocation/README.md says where each comes from.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { decodeMsgpack, type MsgpackMap, type MsgpackValue } from '../../../../test/helpers/msgpack'
import { verifyPresentation, checkPresentation } from '../verify'
import { Fp2, Fr, G1, G2, gtEquals, gtMul, pairing } from './bn254'
import { g1Mul, g2Mul } from './multiply'
import { formatG1, formatG2, formatGt, g2Bytes, parseG1, parseG2, parseGt, parseScalar } from './encoding'
import { readRevocationPublicKey } from './keys'
import { buildTailsFile, tailsHash } from './tails'

const dir = path.join(__dirname, '../../../../test/fixtures/anoncreds-revocation')
const fixture = (name: string) => JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8'))

describe('anoncreds-rs test vectors (did:key issuer, registry of 10)', () => {
  const credDef = fixture('anoncreds-credential-definition').credentialDefinition
  const registry = fixture('anoncreds-revocation-registry-definition')
  const key = readRevocationPublicKey(credDef.value.revocation, 'revocation')
  const gamma = parseScalar(registry.revocationRegistryDefinitionPrivate.value.gamma, 'gamma')
  const definition = registry.revocationRegistryDefinition

  it('rebuilds the published tails file and its hash from gamma', () => {
    const published = Buffer.from(fixture('anoncreds-tails-file').base64, 'base64')
    const tails = buildTailsFile(key.gDash, gamma, definition.value.maxCredNum)
    expect(Buffer.from(tails).equals(published)).toBe(true)
    expect(tailsHash(tails)).toBe(definition.value.tailsHash)
    expect(createHash('sha256').update(published).digest('hex')).toHaveLength(64)
  })

  it('computes the published accumulator key z = e(g, g_dash)^(gamma^(L+1)), text identical', () => {
    const z = pairing(g1Mul(key.g, Fr.pow(gamma, 11n)), key.gDash)
    expect(formatGt(z)).toBe(definition.value.publicKeys.accumKey.z)
    expect(gtEquals(z, parseGt(definition.value.publicKeys.accumKey.z, 'z'))).toBe(true)
  })

  it('computes the published status list accumulator (every index issued by default)', () => {
    let sum = 0n
    for (let k = 1n; k <= 10n; k++) sum = Fr.add(sum, Fr.pow(gamma, k))
    const list = fixture('anoncreds-revocation-status-list')
    expect(formatG2(g2Mul(key.gDash, sum))).toBe(list.currentAccumulator)
  })

  it("checks the published credential's witness and revocation signature with the pairing equations", () => {
    const credential = fixture('anoncreds-legacy-credential')
    const r = credential.signature.r_credential
    const accumulator = parseG2(credential.rev_reg.accum, 'accum')
    const omega = parseG2(credential.witness.omega, 'omega')
    const gI = parseG1(r.g_i, 'g_i')
    const z = parseGt(definition.value.publicKeys.accumKey.z, 'z')
    // e(g_i, acc) / e(g, omega) = z
    expect(gtEquals(pairing(gI, accumulator), gtMul(pairing(key.g, omega), z))).toBe(true)
    // g_i = g^(gamma^i)
    expect(g1Mul(key.g, Fr.pow(gamma, BigInt(r.i))).equals(gI)).toBe(true)
    expect(Buffer.from(g2Bytes(omega)).length).toBe(128)
  })
})

describe('indy-credx presentation with a non-revocation proof (esatus/indy-shared-rs test)', () => {
  const data = fixture('indy-credx-presentation')
  const { ver, id, ...credDefBody } = data.credDef
  void ver
  const credentialDefinition = { ...credDefBody, issuerId: id.split(':')[0] }
  const { ver: _v, id: revRegId, value, ...rest } = data.revRegDef
  void _v
  const { issuanceType, ...registryValue } = value
  void issuanceType
  const revocationRegistryDefinition = { ...rest, issuerId: revRegId.split(':')[0], value: registryValue }
  const statusList = {
    revRegDefId: revRegId,
    issuerId: revRegId.split(':')[0],
    // The published registry state is the accumulator only; the verifier reads nothing else of the list.
    revocationList: new Array(100).fill(0),
    currentAccumulator: data.revReg.value.accum,
    timestamp: data.timestamp,
  }
  const options = () => ({
    presentation: structuredClone(data.presentation),
    presentationRequest: {
      name: 'proof',
      version: '1.0',
      nonce: data.nonce,
      requested_attributes: { reft: { name: 'attr', non_revoked: { from: data.timestamp, to: data.timestamp } } },
      requested_predicates: {},
    },
    schemas: {
      [data.presentation.identifiers[0].schema_id]: {
        issuerId: '55GkHamhTU1ZbTbV2ab9DE',
        name: 'schema name',
        version: 'schema version',
        attrNames: ['attr'],
      },
    },
    credentialDefinitions: { [data.presentation.identifiers[0].cred_def_id]: credentialDefinition },
    revocationRegistryDefinitions: { [revRegId]: revocationRegistryDefinition },
    revocationStatusLists: [statusList],
  })

  it('verifies', () => {
    expect(checkPresentation(options())).toEqual({ valid: true })
  })

  it('fails with another accumulator, a tampered response or a timestamp outside the interval', () => {
    const other = options()
    other.revocationStatusLists = [
      { ...statusList, currentAccumulator: fixture('anoncreds-revocation-status-list').currentAccumulator },
    ]
    expect(verifyPresentation(other)).toBe(false)
    const tampered = options()
    const xList = tampered.presentation.proof.proofs[0].non_revoc_proof.x_list
    xList.r = xList.r_prime
    expect(verifyPresentation(tampered)).toBe(false)
    const late = options()
    late.presentationRequest.requested_attributes.reft.non_revoked = {
      from: data.timestamp + 1,
      to: data.timestamp + 5,
    }
    expect(checkPresentation(late)).toMatchObject({ valid: false })
  })
})

describe('an anoncreds-rs presentation with a non-revocation proof (the W3C presentation of the test vectors)', () => {
  // anoncreds-rs' W3C form carries the same CL proof as its legacy form, MessagePack-encoded: big numbers and
  // scalars as big-endian bytes, points in their byte form. Rewritten here as the legacy presentation JSON.
  const w3c = fixture('w3c-presentation-anoncreds')
  const request = fixture('anoncreds-presentation-request')
  const unpack = (proofValue: string) => {
    const [, body] = decodeMsgpack(Buffer.from(proofValue.slice(1), 'base64url')) as [number, MsgpackMap]
    return body
  }
  const credentialProof = unpack(w3c.verifiableCredential[0].proof.proofValue)
  const { aggregated } = unpack(w3c.proof.proofValue) as { aggregated: MsgpackMap }
  const hex = (value: MsgpackValue) => Buffer.from(value as number[]).toString('hex')
  const decimal = (value: MsgpackValue) => BigInt('0x' + (hex(value) || '0')).toString()
  const scalar = (value: MsgpackValue) => hex(value).toUpperCase().padStart(64, '0')
  const field = (value: MsgpackValue, at: number) => BigInt('0x' + hex(value).slice(2 * at, 2 * at + 64))
  const g1 = (value: MsgpackValue) => formatG1(G1.fromAffine({ x: field(value, 1), y: field(value, 33) }))
  const g2 = (value: MsgpackValue) =>
    formatG2(
      G2.fromAffine({
        x: Fp2.create({ c0: field(value, 0), c1: field(value, 32) }),
        y: Fp2.create({ c0: field(value, 64), c1: field(value, 96) }),
      }),
    )
  const map = (value: MsgpackValue, convert: (item: MsgpackValue) => string) =>
    Object.fromEntries(Object.entries(value as MsgpackMap).map(([key, item]) => [key, convert(item)]))

  const subProof = credentialProof.sub_proof as MsgpackMap
  const primary = subProof.primary_proof as MsgpackMap
  const eq = primary.eq_proof as MsgpackMap
  const nonRevocation = subProof.non_revoc_proof as MsgpackMap
  const cList = nonRevocation.c_list as MsgpackMap
  const revealed = map(eq.revealed_attrs, decimal)
  const revRegId = credentialProof.rev_reg_id as string
  const presentation = {
    proof: {
      proofs: [
        {
          primary_proof: {
            eq_proof: {
              revealed_attrs: revealed,
              a_prime: decimal(eq.a_prime),
              e: decimal(eq.e),
              v: decimal(eq.v),
              m: map(eq.m, decimal),
              m2: decimal(eq.m2),
            },
            ge_proofs: (primary.ge_proofs as MsgpackMap[]).map((ge) => ({
              u: map(ge.u, decimal),
              r: map(ge.r, decimal),
              mj: decimal(ge.mj),
              alpha: decimal(ge.alpha),
              t: map(ge.t, decimal),
              predicate: ge.predicate,
            })),
          },
          non_revoc_proof: {
            x_list: map(nonRevocation.x_list, scalar),
            c_list: {
              e: g1(cList.e),
              d: g1(cList.d),
              a: g1(cList.a),
              g: g1(cList.g),
              w: g2(cList.w),
              s: g2(cList.s),
              u: g2(cList.u),
            },
          },
        },
      ],
      aggregated_proof: {
        c_hash: decimal(aggregated.c_hash),
        c_list: (aggregated.c_list as MsgpackValue[]).map((bytes) => [...(bytes as number[])]),
      },
    },
    requested_proof: {
      revealed_attrs: {},
      revealed_attr_groups: {
        attr2_referent: {
          sub_proof_index: 0,
          values: {
            name: { raw: 'Alex', encoded: revealed.name },
            height: { raw: '175', encoded: revealed.height },
          },
        },
      },
      self_attested_attrs: {},
      unrevealed_attrs: {},
      predicates: { predicate1_referent: { sub_proof_index: 0 } },
    },
    identifiers: [
      {
        schema_id: credentialProof.schema_id,
        cred_def_id: credentialProof.cred_def_id,
        rev_reg_id: revRegId,
        timestamp: credentialProof.timestamp,
      },
    ],
  }
  const options = () => ({
    presentation: structuredClone(presentation),
    presentationRequest: request,
    schemas: { [credentialProof.schema_id as string]: fixture('anoncreds-schema') },
    credentialDefinitions: {
      [credentialProof.cred_def_id as string]: fixture('anoncreds-credential-definition').credentialDefinition,
    },
    revocationRegistryDefinitions: {
      [revRegId]: fixture('anoncreds-revocation-registry-definition').revocationRegistryDefinition,
    },
    revocationStatusLists: [fixture('anoncreds-revocation-status-list')],
    // The list is of timestamp 12, the request asks from 13: the verifier accepts 12 for 13.
    nonRevokedIntervalOverrides: { [revRegId]: { 13: 12 } },
  })

  it('verifies with its c_list being the non-revocation C list, then the primary proof', () => {
    expect(presentation.proof.aggregated_proof.c_list.slice(0, 7)).toEqual(
      Object.values(cList).map((bytes) => [...(bytes as number[])]),
    )
    expect(checkPresentation(options())).toEqual({ valid: true })
  })

  it('fails with a tampered non-revocation response, another accumulator, or without the interval override', () => {
    const tampered = options()
    const xList = tampered.presentation.proof.proofs[0].non_revoc_proof.x_list
    xList.m_prime = xList.m
    expect(checkPresentation(tampered)).toMatchObject({ valid: false })
    const other = options()
    other.revocationStatusLists = [
      {
        ...fixture('anoncreds-revocation-status-list'),
        currentAccumulator: fixture('indy-credx-presentation').revReg.value.accum,
      },
    ]
    expect(checkPresentation(other)).toMatchObject({ valid: false })
    const strict = { ...options(), nonRevokedIntervalOverrides: {} }
    expect(checkPresentation(strict)).toEqual({
      valid: false,
      reason: 'credential 0 was proven non-revoked at 12, outside the requested interval',
    })
  })
})
