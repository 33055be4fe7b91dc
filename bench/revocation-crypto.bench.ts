/**
 * AnonCreds revocation cryptography (issue 25): registry creation with its tails file, verifying a presentation with
 * a non-revocation proof (the published indy-credx one), revoking 100 indices in one status list update, and the
 * pairing group's primitives. `npm run bench:revocation-crypto`; figures in docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { checkPresentation } from '../agent/src/anoncreds/verify'
import { G1, G2, pairing } from '../agent/src/anoncreds/revocation/bn254'
import { g1Mul, g2Mul } from '../agent/src/anoncreds/revocation/multiply'
import { generateRevocationKeys, randomScalar } from '../agent/src/anoncreds/revocation/keys'
import {
  createRevocationRegistryDefinition,
  createRevocationStatusList,
  updateRevocationStatusList,
} from '../agent/src/anoncreds/revocation/registry'

function time<T>(label: string, action: () => T): T {
  const start = performance.now()
  const result = action()
  console.log(`${label}: ${(performance.now() - start).toFixed(1)} ms`)
  return result
}

async function timeAsync<T>(label: string, action: () => Promise<T>): Promise<T> {
  const start = performance.now()
  const result = await action()
  console.log(`${label}: ${(performance.now() - start).toFixed(1)} ms`)
  return result
}

function average(label: string, runs: number, action: () => unknown): void {
  action()
  const start = performance.now()
  for (let i = 0; i < runs; i++) action()
  console.log(`${label}: ${((performance.now() - start) / runs).toFixed(2)} ms (mean of ${runs})`)
}

async function main(): Promise<void> {
const p = g1Mul(G1.BASE, randomScalar())
const q = g2Mul(G2.BASE, randomScalar())
average('G1 scalar multiplication', 50, () => p.multiply(randomScalar()))
average('G2 scalar multiplication', 20, () => q.multiply(randomScalar()))
average('pairing (G2 lines cached)', 20, () => pairing(p, q))
average('pairing (new G2 point)', 10, () => pairing(p, g2Mul(q, 3n)))

const { publicKey } = generateRevocationKeys()
const credentialDefinition = {
  schemaId: 's',
  type: 'CL',
  tag: 't',
  issuerId: 'i',
  value: { primary: {}, revocation: publicKey },
}
for (const size of [1000, 10000]) {
  const created = await timeAsync(`registry of ${size} with tails (${(2 * size + 1) * 128} bytes)`, () =>
    createRevocationRegistryDefinition({
      credentialDefinition,
      credentialDefinitionId: 'cd',
      issuerId: 'i',
      tag: 'bench',
      maximumCredentialNumber: size,
      tailsLocation: 'https://example.invalid/tails',
    }),
  )
  const list = time(`status list of ${size}`, () =>
    createRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinitionId: 'rr',
      revocationRegistryDefinition: created.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: created.revocationRegistryDefinitionPrivate,
      timestamp: 1,
    }),
  )
  time(`revoke 100 of ${size} (one status list update with its accumulator delta)`, () =>
    updateRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinition: created.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: created.revocationRegistryDefinitionPrivate,
      revocationStatusList: list,
      revoked: Array.from({ length: 100 }, (_, k) => k + 1),
      timestamp: 2,
    }),
  )
}

const data = JSON.parse(
  readFileSync(path.join(__dirname, '../test/fixtures/anoncreds-revocation/indy-credx-presentation.json'), 'utf8'),
)
const revRegId = data.revRegDef.id
const { ver: _v, id, ...credDefBody } = data.credDef
void _v
const { ver: _w, id: _i, value, ...rest } = data.revRegDef
void _w
void _i
const { issuanceType: _t, ...registryValue } = value
void _t
const options = () => ({
  presentation: data.presentation,
  presentationRequest: {
    name: 'proof',
    version: '1.0',
    nonce: data.nonce,
    requested_attributes: { reft: { name: 'attr' } },
    requested_predicates: {},
    non_revoked: { from: data.timestamp, to: data.timestamp },
  },
  schemas: {
    [data.presentation.identifiers[0].schema_id]: {
      issuerId: 'x',
      name: 'schema name',
      version: 'schema version',
      attrNames: ['attr'],
    },
  },
  credentialDefinitions: {
    [data.presentation.identifiers[0].cred_def_id]: { ...credDefBody, issuerId: id.split(':')[0] },
  },
  revocationRegistryDefinitions: { [revRegId]: { ...rest, issuerId: 'x', value: registryValue } },
  revocationStatusLists: [
    {
      revRegDefId: revRegId,
      issuerId: 'x',
      revocationList: new Array(100).fill(0),
      currentAccumulator: data.revReg.value.accum,
      timestamp: data.timestamp,
    },
  ],
})
time('verify presentation with non-revocation proof (first, keys parsed)', () => checkPresentation(options()))
average('verify presentation with non-revocation proof (keys cached)', 10, () => {
  const result = checkPresentation(options())
  if (!result.valid) throw new Error(result.reason)
})
}

void main()
