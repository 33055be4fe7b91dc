/**
 * AnonCreds benchmark: our TypeScript library against anoncreds-rs (its WASM build from identus-sdk, the
 * oracle of the tests) in the same run, on the same inputs.
 *
 *   npm run bench:anoncreds
 *   BENCH_ANONCREDS_ITERATIONS=20 npm run bench:anoncreds
 *   BENCH_ANONCREDS_ORACLE_CREDDEF=0 npm run bench:anoncreds   (skip the oracle's minutes-long credential definition)
 *
 * Issuance steps run on the committed oracle credential definition with 10 attributes
 * (test/fixtures/anoncreds/ten.json) for both sides, so both do the same arithmetic on the same key. Each
 * line prints the median time per operation and the ratio oracle/ours (above 1: ours is faster).
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

import {
  createCredential,
  createCredentialDefinition,
  createCredentialOffer,
  createCredentialRequest,
  createLinkSecret,
  createSchema,
  processCredential,
} from '../agent/src/anoncreds'
import { oracle } from '../test/helpers/anoncreds-oracle'
import { benchPresentationSteps, median } from './anoncreds-presentation'

const ITERATIONS = Number(process.env.BENCH_ANONCREDS_ITERATIONS ?? 10)
const ORACLE_CREDDEF = process.env.BENCH_ANONCREDS_ORACLE_CREDDEF !== '0'

interface Fixture {
  schemaId: string
  schema: object
  credentialDefinitionId: string
  credentialDefinition: object
  credentialDefinitionPrivate: object
  keyCorrectnessProof: object
  attributeRawValues: Record<string, string>
}

function time<T>(action: () => T): { ms: number; value: T } {
  const started = performance.now()
  const value = action()
  return { ms: performance.now() - started, value }
}

const rows: Array<{ step: string; ours: number; oracle: number | undefined }> = []

function row(step: string, ours: number, oracleMs: number | undefined): void {
  rows.push({ step, ours, oracle: oracleMs })
  const ratio = oracleMs === undefined ? 'n/a' : `${(oracleMs / ours).toFixed(1)}x`
  const oracleText = oracleMs === undefined ? 'skipped' : `${oracleMs.toFixed(1)} ms`
  console.log(`| ${step} | ${ours.toFixed(1)} ms | ${oracleText} | ${ratio} |`)
}

async function benchCredentialDefinition(fixture: Fixture): Promise<void> {
  const names = Object.keys(fixture.attributeRawValues)
  const schema = createSchema({ name: 'bench', version: '1.0', issuerId: 'did:example:bench', attributeNames: names })
  const ours: number[] = []
  // Safe-prime search time varies a lot from key to key: three keys, the median.
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    await createCredentialDefinition({
      schemaId: 'did:example:bench/schema',
      schema,
      issuerId: 'did:example:bench',
      tag: `t${i}`,
    })
    ours.push(performance.now() - started)
  }
  let oracleMs: number | undefined
  if (ORACLE_CREDDEF) {
    oracleMs = time(() =>
      oracle.createCredentialDefinition({
        schemaId: 'did:example:bench/schema',
        schema,
        issuerId: 'did:example:bench',
        tag: 'o',
      }),
    ).ms
  }
  console.log(
    `credential definition, ${names.length} attributes (ours: median of 3 = ${ours.map((ms) => (ms / 1000).toFixed(1)).join(' s, ')} s; oracle: 1 run)`,
  )
  row('credential definition', median(ours), oracleMs)
}

type IssuanceStep = 'offer' | 'request' | 'credential' | 'processing'

/** Issuance step by step on the fixture's key, ours then the oracle's, ITERATIONS times: each step's samples. */
async function issuanceSamples(fixture: Fixture): Promise<Record<IssuanceStep, [number[], number[]]>> {
  const keys = {
    credentialDefinition: fixture.credentialDefinition,
    credentialDefinitionPrivate: fixture.credentialDefinitionPrivate,
  }
  const offerInput = {
    schemaId: fixture.schemaId,
    credentialDefinitionId: fixture.credentialDefinitionId,
    keyCorrectnessProof: fixture.keyCorrectnessProof,
  }
  const samples: Record<IssuanceStep, [number[], number[]]> = {
    offer: [[], []],
    request: [[], []],
    credential: [[], []],
    processing: [[], []],
  }
  for (let i = 0; i < ITERATIONS; i++) {
    // Between two credentials an issuer's event loop turns (DIDComm, storage), and the signature primes it finds off
    // the loop (agent/src/anoncreds/cl/signature-primes.ts) come back; this loop is otherwise synchronous.
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Ours
    const offer = time(() => createCredentialOffer(offerInput))
    const linkSecret = createLinkSecret()
    const request = time(() =>
      createCredentialRequest({
        entropy: 'bench',
        credentialDefinition: keys.credentialDefinition,
        linkSecret,
        linkSecretId: 'l',
        credentialOffer: offer.value,
      }),
    )
    const credential = time(() =>
      createCredential({
        ...keys,
        credentialOffer: offer.value,
        credentialRequest: request.value.credentialRequest,
        attributeRawValues: fixture.attributeRawValues,
      }),
    )
    const processing = time(() =>
      processCredential({
        credential: credential.value,
        credentialRequestMetadata: request.value.credentialRequestMetadata,
        linkSecret,
        credentialDefinition: keys.credentialDefinition,
      }),
    )
    // Oracle
    const oOffer = time(() => oracle.createCredentialOffer(offerInput))
    const oLinkSecret = oracle.createLinkSecret()
    const oRequest = time(() =>
      oracle.createCredentialRequest({
        credentialDefinition: keys.credentialDefinition,
        linkSecret: oLinkSecret,
        linkSecretId: 'l',
        credentialOffer: oOffer.value,
      }),
    )
    const oCredential = time(() =>
      oracle.createCredential({
        ...keys,
        credentialOffer: oOffer.value,
        credentialRequest: oRequest.value.credentialRequest,
        attributeRawValues: fixture.attributeRawValues,
      }),
    )
    const oProcessing = time(() =>
      oracle.processCredential({
        credential: oCredential.value,
        credentialRequestMetadata: oRequest.value.credentialRequestMetadata,
        linkSecret: oLinkSecret,
        credentialDefinition: keys.credentialDefinition,
      }),
    )
    for (const [step, ours, theirs] of [
      ['offer', offer.ms, oOffer.ms],
      ['request', request.ms, oRequest.ms],
      ['credential', credential.ms, oCredential.ms],
      ['processing', processing.ms, oProcessing.ms],
    ] as const) {
      samples[step][0].push(ours)
      samples[step][1].push(theirs)
    }
  }
  return samples
}

async function benchIssuance(fixture: Fixture): Promise<void> {
  const samples = await issuanceSamples(fixture)
  // Our holder checks an issuer's key correctness proof once per key and proof (docs/decisions.md), so from the
  // second iteration on the request row is the request of a holder that already trusts the key; the first is
  // printed on its own. The oracle checks it every time.
  row('issuance: request, first with this key (proof checked)', samples.request[0][0], samples.request[1][0])
  let oursTotal = 0
  let oracleTotal = 0
  for (const [step, [ours, theirs]] of Object.entries(samples)) {
    row(`issuance: ${step}`, median(ours), median(theirs))
    oursTotal += median(ours)
    oracleTotal += median(theirs)
  }
  row('issuance: total', oursTotal, oracleTotal)
}

// Presentation create and verify with 5 revealed attributes and 2 predicates (bench/anoncreds-presentation.ts).
// The last line of the run is the proof verification ratio.
function benchPresentations(fixture: Fixture): void {
  const result = benchPresentationSteps(fixture, ITERATIONS)
  row('presentation: create (5 revealed, 2 predicates)', result.create.ours, result.create.oracle)
  row('presentation: verify (5 revealed, 2 predicates)', result.verify.ours, result.verify.oracle)
  console.log(`anoncreds proof verify speed-up: ${(result.verify.oracle / result.verify.ours).toFixed(1)}`)
}

/**
 * bench:platform's INDY exchange on a key of its two attributes (name, age; made by our library, so the oracle's
 * minutes-long key generation is not needed): the holder's request, the issuer's signature, the holder's processing,
 * then a presentation revealing the name with `age >= 18`, made and verified. Medians, ours and the oracle's on the
 * same inputs: the CL arithmetic an INDY iteration of bench:platform carries (the request's median is a holder that
 * already checked the key's correctness proof, as bench:platform's holder has after its first credential).
 */
async function benchPlatformExchange(): Promise<void> {
  const schemaId = 'did:example:bench/schema'
  const schema = createSchema({
    name: 'bench',
    version: '1.0',
    issuerId: 'did:example:bench',
    attributeNames: ['name', 'age'],
  })
  const key = await createCredentialDefinition({
    schemaId,
    schema,
    issuerId: 'did:example:bench',
    tag: 'platform',
  })
  const fixture: Fixture = {
    schemaId,
    schema,
    credentialDefinitionId: 'did:example:bench/creddef/platform',
    credentialDefinition: key.credentialDefinition,
    credentialDefinitionPrivate: key.credentialDefinitionPrivate,
    keyCorrectnessProof: key.keyCorrectnessProof,
    attributeRawValues: { name: 'Holder', age: '30' },
  }
  const issuance = await issuanceSamples(fixture)
  const presentation = benchPresentationSteps(fixture, ITERATIONS, {
    revealed: ['name'],
    predicates: { age: { name: 'age', p_type: '>=', p_value: 18 } },
    rawValues: {},
  })
  const medians = (step: IssuanceStep) => [median(issuance[step][0]), median(issuance[step][1])] as const
  const steps: Array<readonly [string, number, number]> = [
    ['request (the holder)', ...medians('request')],
    ['credential (the issuer)', ...medians('credential')],
    ['processing (the holder)', ...medians('processing')],
    ['presentation: create (the holder)', presentation.create.ours, presentation.create.oracle],
    ['presentation: verify (the issuer)', presentation.verify.ours, presentation.verify.oracle],
  ]
  for (const [step, ours, theirs] of steps) row(`bench:platform's INDY exchange, ${step}`, ours, theirs)
  const total = steps.reduce((sum, [, ours, theirs]) => [sum[0] + ours, sum[1] + theirs], [0, 0])
  row("bench:platform's INDY exchange, total", total[0], total[1])
}

async function main(): Promise<void> {
  const fixture = JSON.parse(
    readFileSync(join(__dirname, '..', 'test', 'fixtures', 'anoncreds', 'ten.json'), 'utf8'),
  ) as Fixture
  oracle.createLinkSecret() // loads the WASM before anything is timed
  console.log(
    `AnonCreds benchmark: ours (TypeScript, OpenSSL modexp) vs anoncreds-rs WASM; ${ITERATIONS} issuance iterations; load average ${loadavg()[0].toFixed(1)}`,
  )
  console.log('| step | ours | oracle | speed-up |')
  console.log('|---|---|---|---|')
  await benchCredentialDefinition(fixture)
  await benchIssuance(fixture)
  await benchPlatformExchange()
  // Last: its final line is the proof verification ratio.
  benchPresentations(fixture)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
