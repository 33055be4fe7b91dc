/**
 * The check of options Credo's key management API runs on every call (sign, verify, encrypt, decrypt, random
 * bytes): `zWithBackend(schema)` and a parse, with Credo's own helper and option schemas. Stock zod builds the
 * intersection anew each time; with agent/src/credo/backend-intersection-memo.ts it is kept per schema. Each mode
 * runs in its own child process (the memo cannot be taken back once installed), alternated ABBA, after a check that
 * both accept and refuse the same options.
 *
 *   npm run bench:kms-options
 *   BENCH_KMS_ROUNDS=5000 npm run bench:kms-options
 */
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import path from 'node:path'

import { rememberBackendIntersections } from '../agent/src/credo/backend-intersection-memo'
import { positiveIntEnv } from './api-harness'

const ROUNDS = positiveIntEnv('BENCH_KMS_ROUNDS', 2000)
const MODE = process.argv[2]

interface Schema {
  parse(value: unknown): unknown
}

/** One call of each kind, as Credo's DIDComm and signature suites make them. */
const CALLS: readonly [file: string, schema: string, options: object][] = [
  ['KmsSignOptions', 'zKmsSignOptions', { keyId: 'key-1', algorithm: 'EdDSA', data: new Uint8Array(96) }],
  [
    'KmsVerifyOptions',
    'zKmsVerifyOptions',
    { key: { keyId: 'key-1' }, algorithm: 'EdDSA', data: new Uint8Array(96), signature: new Uint8Array(64) },
  ],
  [
    'KmsEncryptOptions',
    'zKmsEncryptOptions',
    { key: { keyId: 'key-1' }, data: new Uint8Array(256), encryption: { algorithm: 'XSALSA20-POLY1305' } },
  ],
  ['KmsRandomBytesOptions', 'zKmsRandomBytesOptions', { length: 32 }],
]

async function measure(mode: 'stock' | 'memo'): Promise<void> {
  const options = path.join(path.dirname(require.resolve('@credo-ts/core/package.json')), 'build/modules/kms/options')
  const load = (file: string) => import(path.join(options, `${file}.mjs`)) as Promise<Record<string, unknown>>
  const { zWithBackend } = (await load('backend')) as { zWithBackend: (schema: Schema) => Schema }
  const schemas = await Promise.all(CALLS.map(async ([file, name]) => (await load(file))[name] as Schema))
  // As in the agent: Credo loaded before the memo is installed on its zod.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for its side effect, as buildAgent's imports do
  require('@credo-ts/core')
  if (mode === 'memo') rememberBackendIntersections()
  // Same verdicts in both modes: each call's options accepted, and refused with a wrong backend.
  for (const [i, schema] of schemas.entries()) {
    zWithBackend(schema).parse({ ...CALLS[i][2], backend: 'node' })
    let refused = false
    try {
      zWithBackend(schema).parse({ ...CALLS[i][2], backend: 1 })
    } catch {
      refused = true
    }
    if (!refused) throw new Error(`${CALLS[i][0]}: a numeric backend was accepted`)
  }
  const started = process.cpuUsage()
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, schema] of schemas.entries()) zWithBackend(schema).parse(CALLS[i][2])
  const used = process.cpuUsage(started)
  process.stdout.write(`${((used.user + used.system) / (ROUNDS * CALLS.length)).toFixed(2)}\n`)
}

function run(mode: 'stock' | 'memo'): number {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, mode], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`${mode} run failed: ${child.stderr}`)
  return Number(child.stdout.trim().split('\n').at(-1))
}

if (MODE === 'stock' || MODE === 'memo') {
  void measure(MODE)
} else {
  console.log(
    `kms-options: ${ROUNDS} rounds of ${CALLS.length} calls, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const figures = { stock: [] as number[], memo: [] as number[] }
  for (const mode of ['memo', 'stock', 'stock', 'memo'] as const) {
    const perCall = run(mode)
    figures[mode].push(perCall)
    console.log(`${mode}: ${perCall} µs of CPU per call`)
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
  console.log(`kms-options: memo / stock CPU per call ${(mean(figures.memo) / mean(figures.stock)).toFixed(3)}`)
}
