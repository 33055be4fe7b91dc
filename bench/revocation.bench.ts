/**
 * Issue 25's revocation benchmark, agent level: a real API serving the platform ledger and two real Credo agents
 * (issuer, holder) in this process, driven through their admin APIs as in the agent-level integration test. Each
 * figure has its peer in the same run (with revocation against without); wall time and this process's CPU time
 * (API and both agents run here). Knobs: BENCH_REVOCATION_SIZES (registry sizes, default 1000,10000),
 * BENCH_REVOCATION_ROUNDS (issuances and proofs per variant, default 3), BENCH_REVOCATION_REVOKE (indices revoked at
 * once, default 100). Run with `npm run bench:revocation`; not part of jest.
 */
import { randomInt } from 'node:crypto'

import {
  decodeBitstring,
  emptyBitstring,
  encodeBitstring,
  getBit,
  MIN_STATUS_LIST_SIZE,
  setBit,
} from '../common/bitstring-status-list'
import { startRevocationAgents, waitFor, type RevocationAgents } from '../test/helpers/revocation-agents'
import { claimAgentPorts } from '../test/helpers/ports'
import { positiveIntEnv } from './api-harness'
import { timePresentations, type Timing } from './revocation-presentation'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

interface Sample {
  wallMs: number
  cpuMs: number
}

async function measure<T>(run: () => Promise<T>): Promise<Sample & { value: T }> {
  const cpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  const value = await run()
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6
  const used = process.cpuUsage(cpu)
  return { wallMs, cpuMs: (used.user + used.system) / 1000, value }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1)
const fmt = (x: number) => x.toFixed(1).padStart(9)
const rows: string[] = []

function row(name: string, samples: Sample[], peer?: Sample[]): void {
  const wall = mean(samples.map((s) => s.wallMs))
  const cpu = mean(samples.map((s) => s.cpuMs))
  const ratio = peer ? (wall / mean(peer.map((s) => s.wallMs))).toFixed(2) : ''
  rows.push(
    `| ${name.padEnd(44)} | ${String(samples.length).padStart(2)} | ${fmt(wall)} | ${fmt(cpu)} | ${ratio.padStart(5)} |`,
  )
}

/** A row of the in-process presentation section: the mean of `runs`, its ratio to the peer. */
function timingRow(name: string, timing: Timing, peer?: Timing): void {
  const ratio = peer ? (timing.wallMs / peer.wallMs).toFixed(2) : ''
  rows.push(
    `| ${name.padEnd(44)} | ${String(timing.runs).padStart(2)} | ${fmt(timing.wallMs)} | ${fmt(timing.cpuMs)} | ${ratio.padStart(5)} |`,
  )
}

function sizesOf(): number[] {
  const raw = process.env.BENCH_REVOCATION_SIZES ?? '1000,10000'
  return raw.split(',').map((s) => {
    const n = Number(s)
    if (!Number.isInteger(n) || n < 2) throw new Error(`BENCH_REVOCATION_SIZES: ${s} is not a size`)
    return n
  })
}

async function main(): Promise<void> {
  const sizes = sizesOf()
  const rounds = positiveIntEnv('BENCH_REVOCATION_ROUNDS', 3)
  const revokeCount = positiveIntEnv('BENCH_REVOCATION_REVOKE', 100)
  const pair: RevocationAgents = await startRevocationAgents(await claimAgentPorts(), 'revbench')
  const { issuer, holder, issuerConnectionId } = pair
  try {
    const did = (await issuer.post('/dids', { method: 'indy' }).expect(201)).body.data.did as string
    // One schema per definition: a second definition of a schema with the same tag is a conflict.
    const definition = (supportRevocation: boolean) =>
      measure(async () => {
        const schema = await issuer
          .post('/anoncreds/schemas', {
            issuerId: did,
            name: supportRevocation ? 'member_r' : 'member',
            version: '1.0',
            attributes: ['name', 'age'],
          })
          .expect(201)
        const created = await issuer
          .post('/anoncreds/credential-definitions', { schemaId: schema.body.data.schemaId, supportRevocation })
          .expect(201)
        return created.body.data.credentialDefinitionId as string
      })
    const plainDef = await definition(false)
    const revocableDef = await definition(true)
    row('schema + credential definition, revocable', [revocableDef], [plainDef])
    row('schema + credential definition, not', [plainDef])

    // Registries with their tails files (computed, stored by the platform, published on the ledger).
    const registries: Record<number, string> = {}
    const registryTimes: Record<number, Sample> = {}
    for (const size of sizes) {
      const created = await measure(async () => {
        const response = await issuer
          .post('/anoncreds/revocation-registries', {
            credentialDefinitionId: revocableDef.value,
            maximumCredentialNumber: size,
            tag: `r${size}`,
          })
          .expect(201)
        return response.body.data.revocationRegistryDefinitionId as string
      })
      registries[size] = created.value
      registryTimes[size] = created
      row(`registry of ${size} with tails`, [created])
    }
    const registryId = registries[sizes[0]]

    async function issue(credentialDefinitionId: string, name: string, index?: number): Promise<void> {
      const revocation =
        index === undefined ? {} : { revocationRegistryDefinitionId: registryId, revocationRegistryIndex: index }
      const offer = await issuer
        .post('/credentials/offer', {
          connectionId: issuerConnectionId,
          autoAcceptCredential: 'always',
          credentialFormats: {
            anoncreds: {
              credentialDefinitionId,
              attributes: [
                { name: 'name', value: name },
                { name: 'age', value: '30' },
              ],
              ...revocation,
            },
          },
        })
        .expect(201)
      const threadId = offer.body.data.threadId as string
      const received = await waitFor(async () => {
        const [record] = (await holder.get(`/credentials?threadId=${threadId}`).expect(200)).body.data as Json[]
        return record?.state === 'offer-received' ? record : undefined
      }, 'the offer')
      await holder.post('/credentials/accept-offer', {
        credentialRecordId: received.id,
        autoAcceptCredential: 'always',
      })
      await waitFor(
        async () => {
          const record = (await holder.get(`/credentials/${received.id}`).expect(200)).body.data as Json
          if (record.state === 'abandoned') throw new Error(`issuance abandoned: ${record.errorMessage}`)
          return record.state === 'done' ? record : undefined
        },
        'the credential',
        60_000,
      )
    }

    const issuedPlain: Sample[] = []
    const issuedRevocable: Sample[] = []
    for (let i = 0; i < rounds; i++) {
      issuedPlain.push(await measure(() => issue(plainDef.value, `plain${i}`)))
      issuedRevocable.push(await measure(() => issue(revocableDef.value, `revocable${i}`, i + 1)))
    }
    row('issue (offer to done), with revocation', issuedRevocable, issuedPlain)
    row('issue (offer to done), without', issuedPlain)

    /** The presentation (create, send, verify on receipt) and the verify call, timed apart. */
    async function prove(credentialDefinitionId: string, name: string, nonRevoked: boolean) {
      const requested = await issuer
        .post('/proofs/request', {
          connectionId: issuerConnectionId,
          proofFormats: {
            anoncreds: {
              requested_attributes: {
                name: {
                  name: 'name',
                  restrictions: [{ cred_def_id: credentialDefinitionId, 'attr::name::value': name }],
                },
              },
              requested_predicates: {
                adult: {
                  name: 'age',
                  p_type: '>=',
                  p_value: 18,
                  restrictions: [{ cred_def_id: credentialDefinitionId }],
                },
              },
              ...(nonRevoked ? { non_revoked: { to: Math.floor(Date.now() / 1000) } } : {}),
            },
          },
        })
        .expect(201)
      const proofRecordId = requested.body.data.id as string
      const threadId = requested.body.data.threadId as string
      const received = await waitFor(async () => {
        const [record] = (await holder.get(`/proofs?threadId=${threadId}`).expect(200)).body.data as Json[]
        return record?.state === 'request-received' ? record : undefined
      }, 'the proof request')
      // Credo verifies a presentation on receipt, in the HTTP request that delivers it: the span from the holder's
      // accept-request to the verifier's record holding the result is create + send + verify (polled every 20 ms).
      const create = await measure(async () => {
        await holder.post('/proofs/accept-request', { proofRecordId: received.id }).expect(201)
        await waitFor(async () => {
          const record = (await issuer.get(`/proofs/${proofRecordId}`).expect(200)).body.data as Json
          return ['presentation-received', 'done', 'abandoned'].includes(record.state) ? record : undefined
        }, 'the presentation')
      })
      const verify = await measure(() => issuer.post(`/proofs/${proofRecordId}/verify`, {}).expect(201))
      if (verify.value.body.data?.isVerified !== true) throw new Error(`proof of ${name} not verified`)
      return { create, verify }
    }

    const proofs = {
      plain: [] as { create: Sample; verify: Sample }[],
      revocable: [] as { create: Sample; verify: Sample }[],
    }
    for (let i = 0; i < rounds; i++) {
      proofs.plain.push(await prove(plainDef.value, `plain${i}`, false))
      proofs.revocable.push(await prove(revocableDef.value, `revocable${i}`, true))
    }
    const pick = (list: { create: Sample; verify: Sample }[], key: 'create' | 'verify') => list.map((p) => p[key])
    row('present: create+send+verify, non_revoked', pick(proofs.revocable, 'create'), pick(proofs.plain, 'create'))
    row('present: create+send+verify, without', pick(proofs.plain, 'create'))
    row('verify call (result from receipt), non_rev.', pick(proofs.revocable, 'verify'), pick(proofs.plain, 'verify'))
    row('verify call (result from receipt), without', pick(proofs.plain, 'verify'))

    // Revoke + publish: indices after the issued ones, in the largest registry too when there is one.
    const revokeIn = async (id: string, size: number) => {
      const count = Math.min(revokeCount, size - rounds - 1)
      const indices = Array.from({ length: count }, (_, k) => rounds + 1 + k)
      const revoked = await measure(async () => {
        const response = await issuer
          .post('/anoncreds/revocation-registries/revoke', {
            revocationRegistryDefinitionId: id,
            revokedIndices: indices,
          })
          .expect(201)
        return response.body.data as Json
      })
      if ((revoked.value.revokedIndices as number[]).length !== count) throw new Error('revocations not published')
      row(`revoke ${count} + publish, registry of ${size}`, [revoked])
      return { revoked, indices }
    }
    const revocations = []
    for (const size of sizes) revocations.push({ size, ...(await revokeIn(registries[size], size)) })

    // Status list fetch (the holder's agent resolves it from the ledger) and check of the revoked indices.
    for (const { size, indices } of revocations) {
      const fetched = await measure(async () => {
        const { revocationStatusList } = await holder.agent.modules.anoncreds.getRevocationStatusList(
          registries[size],
          Math.floor(Date.now() / 1000),
        )
        if (!revocationStatusList) throw new Error('no status list')
        const list = revocationStatusList.revocationList
        if (!indices.every((index) => list[index] === 1) || list[0] !== 0) throw new Error('status list wrong')
        return list.length
      })
      row(`status list fetch + check, registry of ${size}`, [fetched])
    }

    // W3C Bitstring Status List (JSON-LD): encoding a list as its publication does, decoding and reading one bit as a
    // verifier does, on a list of the default size with 1 % of its entries set. The fetch is one HTTP GET of the
    // served credential (about 0.2 kB of JSON around the encoded list) and its proof check one Ed25519 verification.
    const bits = emptyBitstring(MIN_STATUS_LIST_SIZE)
    for (let n = 0; n < MIN_STATUS_LIST_SIZE / 100; n++) setBit(bits, randomInt(MIN_STATUS_LIST_SIZE), true)
    const encodings: Sample[] = []
    const checks: Sample[] = []
    let encoded = ''
    for (let run = 0; run < 10; run++) {
      encodings.push(await measure(async () => (encoded = encodeBitstring(bits))))
      const index = randomInt(MIN_STATUS_LIST_SIZE)
      checks.push(
        await measure(async () => {
          if (getBit(decodeBitstring(encoded), index) !== getBit(bits, index)) throw new Error('bitstring check wrong')
        }),
      )
    }
    row(`bitstring list encode (${MIN_STATUS_LIST_SIZE}, ${(encoded.length / 1024).toFixed(1)} kB)`, encodings)
    row(`bitstring list decode + check one index`, checks)

    // The non-revocation part alone: the agent's own AnonCreds code in this process, no DIDComm, no ledger reads.
    const inProcess = await timePresentations(1000, positiveIntEnv('BENCH_REVOCATION_PRESENTATIONS', 10))
    timingRow('in-process create, non_revoked (reg. 1000)', inProcess.create.withNonRevoked, inProcess.create.without)
    timingRow('in-process create, without', inProcess.create.without)
    timingRow('in-process verify, non_revoked (reg. 1000)', inProcess.verify.withNonRevoked, inProcess.verify.without)
    timingRow('in-process verify, without', inProcess.verify.without)
    const part = (step: 'create' | 'verify') => inProcess[step].withNonRevoked.wallMs - inProcess[step].without.wallMs

    console.log(
      `\nAnonCreds revocation, two agents on the platform ledger (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`,
    )
    console.log(
      `sizes ${sizes.join(',')}, rounds ${rounds}, revoke ${revokeCount}; means in ms; ratio = wall / its peer\n`,
    )
    console.log(`| ${'step'.padEnd(44)} |  n |   wall ms |    cpu ms | ratio |`)
    console.log(`|${'-'.repeat(46)}|----|-----------|-----------|-------|`)
    for (const line of rows) console.log(line)

    const diff = (key: 'create' | 'verify') =>
      mean(pick(proofs.revocable, key).map((s) => s.wallMs)) - mean(pick(proofs.plain, key).map((s) => s.wallMs))
    const largest = Math.max(...sizes)
    const targets = [
      registryTimes[10000]
        ? [`registry of 10,000 under 10 s`, registryTimes[10000].wallMs < 10_000, registryTimes[10000].wallMs]
        : [`registry of 10,000 under 10 s (size not run)`, false, NaN],
      [
        `non-revocation part of create+send+verify under 100 ms (both targets together)`,
        diff('create') < 100,
        diff('create'),
      ],
      [
        `non-revocation part of creating a presentation (in process) under 100 ms`,
        part('create') < 100,
        part('create'),
      ],
      [`non-revocation part of verifying it (in process) under 100 ms`, part('verify') < 100, part('verify')],
      ...revocations.map((r) => [
        `revoke ${r.indices.length} + publish (${r.size}) under 1 s`,
        r.revoked.wallMs < 1000,
        r.revoked.wallMs,
      ]),
    ] as [string, boolean, number][]
    console.log(`\nlargest registry ${largest}`)
    for (const [what, met, ms] of targets) console.log(`${met ? 'MET    ' : 'NOT MET'} ${what}: ${ms.toFixed(1)} ms`)
  } finally {
    await pair.stop()
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
