/**
 * Known answers published by anoncreds-rs and indy-credx (same CL-signatures lineage, same Milagro BN254):
 * test/fixtures/anoncreds-revocation/README.md says where each comes from.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { verifyPresentation, checkPresentation } from '../verify'
import { Fr, g1Mul, g2Mul, gtEquals, gtMul, pairing } from './bn254'
import { formatG2, formatGt, g2Bytes, parseG1, parseG2, parseGt, parseScalar } from './encoding'
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
