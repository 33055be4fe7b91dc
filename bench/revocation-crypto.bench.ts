/**
 * AnonCreds revocation cryptography (issue 25, item 1): the pairing group's primitives, registry creation with its
 * tails file (the earlier method, the comb in this thread, the comb in worker threads with the event loop's delay
 * meanwhile), status lists and revoking 100, issuance and processing with and without revocation, holder states,
 * and the non-revocation part of a presentation measured apart from the whole. Every figure gives wall time and the
 * process's CPU time (all its threads): on a shared machine the CPU time is what the work costs.
 * `npm run bench:revocation-crypto`; figures in docs/benchmarks.md. `BENCH_OLD_10K=1` also times the earlier tails
 * method on 10,000 (about half a minute).
 */
import { availableParallelism, loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'

import { createCredential, processCredential } from '../agent/src/anoncreds/credential'
import { createCredentialRequest } from '../agent/src/anoncreds/credential-request'
import { G1, G2, pairing, pairingProduct, gtPow } from '../agent/src/anoncreds/revocation/bn254'
import {
  readNonRevocationCredential,
  readRevocationPublicKey,
  randomScalar,
} from '../agent/src/anoncreds/revocation/keys'
import { g1Mul, g2Mul } from '../agent/src/anoncreds/revocation/multiply'
import {
  initNonRevocationProof,
  readNonRevocationProof,
  tauList,
} from '../agent/src/anoncreds/revocation/non-revocation-proof'
import {
  createRevocationRegistryDefinition,
  createRevocationStatusList,
  revocationRegistryDefinitionOf,
  statusListOf,
  updateRevocationStatusList,
} from '../agent/src/anoncreds/revocation/registry'
import { createOrUpdateRevocationState, readRevocationState } from '../agent/src/anoncreds/revocation/revocation-state'
import { TAILS_VERSION, tailsFileSize } from '../agent/src/anoncreds/revocation/tails'
import { G2_BYTES, g2Bytes } from '../agent/src/anoncreds/revocation/encoding'
import { fixture, timePresentations, type Timing } from './revocation-presentation'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

async function measure<T>(label: string, runs: number, action: () => T | Promise<T>): Promise<T> {
  let result = await action() // warm-up (and the result)
  const cpu = process.cpuUsage()
  const start = performance.now()
  for (let i = 0; i < runs; i++) result = await action()
  const wall = (performance.now() - start) / runs
  console.log(`${label}: ${wall.toFixed(1)} ms wall, ${(cpuMs(cpu) / runs).toFixed(1)} ms CPU (mean of ${runs})`)
  return result
}

async function once<T>(label: string, action: () => T | Promise<T>): Promise<T> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const result = await action()
  console.log(`${label}: ${(performance.now() - start).toFixed(0)} ms wall, ${cpuMs(cpu).toFixed(0)} ms CPU`)
  return result
}

/** The tails file as before this work: noble's fixed-base multiplication with an 8-bit window table. */
function tailsTheEarlierWay(gDash: ReturnType<typeof G2.fromAffine>, gamma: bigint, maxCredNum: number): Uint8Array {
  const file = new Uint8Array(tailsFileSize(maxCredNum))
  file.set(TAILS_VERSION, 0)
  const base = G2.fromAffine(gDash.toAffine())
  base.precompute(8)
  let power = 1n
  for (let k = 0; k <= 2 * maxCredNum; k++) {
    if (k > 0) power = (power * gamma) % G1.CURVE().n
    const point = k === 0 || k === maxCredNum + 1 ? base : base.multiply(power)
    file.set(g2Bytes(point), TAILS_VERSION.length + k * G2_BYTES)
  }
  return file
}

async function main(): Promise<void> {
  console.log(
    `cores ${availableParallelism()}, load average at start ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  )

  console.log('\n# primitives')
  const p = g1Mul(G1.BASE, randomScalar())
  const q = g2Mul(G2.BASE, randomScalar())
  await measure('G1 multiplication, ours', 50, () => g1Mul(p, randomScalar()))
  await measure('G1 multiplication, noble', 20, () => p.multiply(randomScalar()))
  await measure('G2 multiplication, ours', 20, () => g2Mul(q, randomScalar()))
  await measure('G2 multiplication, noble', 10, () => q.multiply(randomScalar()))
  await measure('pairing (G2 lines cached)', 10, () => pairing(p, q))
  await measure('pairing product of 3 (lines cached)', 10, () =>
    pairingProduct([
      [p, q],
      [p.double(), q.double()],
      [p.negate(), q],
    ]),
  )
  const gt = pairing(p, q)
  await measure('GT exponentiation', 10, () => gtPow(gt, randomScalar()))

  const definition = fixture('anoncreds-credential-definition')
  const credentialDefinition = definition.credentialDefinition
  const credentialDefinitionPrivate = definition.credentialDefinitionPrivate
  const key = readRevocationPublicKey(credentialDefinition.value.revocation, 'revocation')
  const credDefId = fixture('anoncreds-credential-offer').cred_def_id as string
  const registries: Record<number, Awaited<ReturnType<typeof createRevocationRegistryDefinition>>> = {}
  const lists: Record<number, Json> = {}

  for (const size of [1000, 10000]) {
    console.log(`\n# registry of ${size} (tails file ${(tailsFileSize(size) / 1e6).toFixed(2)} MB)`)
    const create = (tailsThreads?: number) =>
      createRevocationRegistryDefinition({
        credentialDefinition,
        credentialDefinitionId: credDefId,
        issuerId: credentialDefinition.issuerId,
        tag: `bench-${size}`,
        maximumCredentialNumber: size,
        tailsLocation: 'https://tails.example/bench',
        tailsThreads,
      })
    if (size === 1000 || process.env.BENCH_OLD_10K === '1') {
      await once(`tails, the earlier way (noble, 8-bit fixed window), ${size}`, () =>
        tailsTheEarlierWay(key.gDash, randomScalar(), size),
      )
    }
    await once(`registry with tails, comb in this thread, ${size}`, () => create(0))
    // The event loop's delay while workers compute: what the agent's other work would wait.
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    registries[size] = await once(`registry with tails, comb in worker threads (default), ${size}`, () => create())
    delay.disable()
    console.log(
      `  event loop meanwhile: max delay ${(delay.max / 1e6).toFixed(0)} ms, mean ${(delay.mean / 1e6).toFixed(1)} ms`,
    )
    const registry = registries[size]
    lists[size] = await measure(`status list of ${size}`, 3, () =>
      createRevocationStatusList({
        credentialDefinition,
        revocationRegistryDefinitionId: `${credDefId}/rev/${size}`,
        revocationRegistryDefinition: registry.revocationRegistryDefinition,
        revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
        timestamp: 100,
      }),
    )
    await measure(`revoke 100 of ${size} (one status list update)`, 3, () =>
      updateRevocationStatusList({
        credentialDefinition,
        revocationRegistryDefinition: registry.revocationRegistryDefinition,
        revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
        revocationStatusList: lists[size],
        revoked: Array.from({ length: 100 }, (_, k) => 2 * k + 1),
        timestamp: 200,
      }),
    )
  }

  console.log('\n# issuance (anoncreds-rs credential definition of the test vectors, registry of 1,000)')
  const offer = fixture('anoncreds-credential-offer')
  const { linkSecret, linkSecretId } = fixture('anoncreds-link-secret')
  const registry = registries[1000]
  const list = lists[1000]
  const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
    entropy: 'bench',
    credentialDefinition,
    linkSecret,
    linkSecretId,
    credentialOffer: offer,
  })
  const values = { id: 'did:example:holder', name: 'Alex', age: '28', sex: 'male', height: '175' }
  const issue = (revocable: boolean) =>
    createCredential({
      credentialDefinition,
      credentialDefinitionPrivate,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: values,
      revocationConfiguration: revocable
        ? {
            revocationRegistryDefinition: registry.revocationRegistryDefinition,
            revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
            revocationStatusList: list,
            registryIndex: 42,
          }
        : undefined,
    })
  const plain = await measure('createCredential without revocation', 5, () => issue(false))
  const revocable = await measure('createCredential with revocation', 5, () => issue(true))
  const processOptions = (credential: unknown, revocableOne: boolean) => ({
    credential,
    credentialRequestMetadata,
    linkSecret,
    credentialDefinition,
    revocationRegistryDefinition: revocableOne ? registry.revocationRegistryDefinition : undefined,
  })
  await measure('processCredential without revocation', 5, () => processCredential(processOptions(plain, false)))
  const processed = await measure('processCredential with revocation', 5, () =>
    processCredential(processOptions(revocable, true)),
  )

  console.log('\n# holder revocation state')
  for (const size of [1000, 10000]) {
    const reg = registries[size]
    await measure(`from the tails file, registry of ${size}`, 3, () =>
      createOrUpdateRevocationState({
        revocationRegistryDefinition: reg.revocationRegistryDefinition,
        revocationStatusList: lists[size],
        revocationRegistryIndex: 42,
        tailsFile: reg.tailsFile,
      }),
    )
  }
  const state = createOrUpdateRevocationState({
    revocationRegistryDefinition: registry.revocationRegistryDefinition,
    revocationStatusList: list,
    revocationRegistryIndex: 42,
    tailsFile: registry.tailsFile,
  })
  const revoked100 = updateRevocationStatusList({
    credentialDefinition,
    revocationRegistryDefinition: registry.revocationRegistryDefinition,
    revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
    revocationStatusList: list,
    revoked: Array.from({ length: 100 }, (_, k) => 2 * k + 101),
    timestamp: 300,
  })
  await measure('updated after 100 revocations, registry of 1,000', 3, () =>
    createOrUpdateRevocationState({
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationStatusList: revoked100,
      revocationRegistryIndex: 42,
      tailsFile: registry.tailsFile,
      oldRevocationState: state,
      oldRevocationStatusList: list,
    }),
  )

  console.log('\n# the non-revocation part of a presentation, alone')
  const rCredential = readNonRevocationCredential(processed.signature.r_credential, 'r_credential')
  const parsedState = readRevocationState(state, 'state')
  const accumulatorKey = revocationRegistryDefinitionOf(registry.revocationRegistryDefinition, 'd').accumulatorKey
  const m2Tilde = randomScalar() << 2000n
  const proofJson = await measure('create (C list, tau list, responses)', 10, () =>
    initNonRevocationProof(key, rCredential, parsedState.accumulator, parsedState.witness, m2Tilde).finalize(
      randomScalar(),
    ),
  )
  const accumulator = statusListOf(list, 'list').accumulator ?? G2.ZERO
  await measure('verify (read the proof, tau list with the challenge)', 10, () => {
    const proof = readNonRevocationProof(JSON.parse(JSON.stringify(proofJson)), 'proof')
    return tauList(key, accumulator, accumulatorKey, proof.xList, proof.cList, m2Tilde, 12345n)
  })

  console.log('\n# whole presentations (one credential, a revealed attribute and a predicate; registry of 1,000)')
  const whole = await timePresentations(1000, 5)
  for (const [step, timings] of Object.entries(whole) as [string, Record<string, Timing>][])
    for (const [variant, timing] of Object.entries(timings))
      console.log(
        `${step} ${variant === 'without' ? 'without revocation' : 'with a non-revocation proof'}: ` +
          `${timing.wallMs.toFixed(1)} ms wall, ${timing.cpuMs.toFixed(1)} ms CPU (mean of ${timing.runs})`,
      )

  console.log(
    `\nload average at the end ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  )
}

void main()
