/**
 * class-transformer as Credo uses it for every record it stores or reads and every message it sends, receives or
 * reads back: a credential offer message (with its JSON-LD attachment), an exchange record and a connection record,
 * each converted to JSON, back to its class and cloned, per round. Measured alternately (ABBA) in one process with
 * class-transformer's own metadata lookups and with the agent's (agent/src/credo/transform-metadata-memo.ts); both
 * must give the same JSON, which is checked before anything is timed.
 *
 *   npm run bench:transform
 *   BENCH_TRANSFORM_ROUNDS=5000 npm run bench:transform
 */
import 'reflect-metadata'
import { loadavg } from 'node:os'

import { JsonTransformer } from '@credo-ts/core'
import {
  DidCommConnectionRecord,
  DidCommCredentialExchangeRecord,
  DidCommOfferCredentialV2Message,
} from '@credo-ts/didcomm'

import { rememberTransformMetadata } from '../agent/src/credo/transform-metadata-memo'
import { aDegreeCredential, signingOptions } from '../test/fixtures/degree-credential'
import { positiveIntEnv } from './api-harness'

const ROUNDS = positiveIntEnv('BENCH_TRANSFORM_ROUNDS', 2000)

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the storage singleton is not in the package's index
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: object }

const issuer = 'did:key:z6MkjGgqKhyWtPWkvFfTY9ZAzMWJqD1Vn1CNkvrnq1z9HD4m'
const holder = 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH'

function theMessage(): object {
  return {
    '@type': 'https://didcomm.org/issue-credential/2.0/offer-credential',
    '@id': '4f1a8bb4-4a2e-4d71-8d8a-3f8a31f1b1b7',
    '~thread': { thid: '4f1a8bb4-4a2e-4d71-8d8a-3f8a31f1b1b7' },
    comment: 'A degree',
    credential_preview: {
      '@type': 'https://didcomm.org/issue-credential/2.0/credential-preview',
      attributes: [{ name: 'degree', 'mime-type': 'text/plain', value: 'Bachelor of Science' }],
    },
    formats: [{ attach_id: 'ld', format: 'aries/ld-proof-vc-detail@v1.0' }],
    'offers~attach': [
      {
        '@id': 'ld',
        'mime-type': 'application/json',
        data: {
          base64: Buffer.from(
            JSON.stringify({ credential: aDegreeCredential(issuer, holder), options: signingOptions() }),
          ).toString('base64'),
        },
      },
    ],
  }
}

function theExchange(): object {
  return {
    id: '1d3c7f0e-0c0e-4e53-9c61-2f1d1c1e3a10',
    createdAt: '2026-11-30T12:00:00.000Z',
    updatedAt: '2026-11-30T12:00:01.000Z',
    connectionId: '7a3b5c9e-1111-4f2a-9d3e-0a1b2c3d4e5f',
    threadId: '4f1a8bb4-4a2e-4d71-8d8a-3f8a31f1b1b7',
    state: 'offer-sent',
    role: 'issuer',
    protocolVersion: 'v2',
    autoAcceptCredential: 'always',
    credentials: [{ credentialRecordType: 'w3c', credentialRecordId: 'c-1' }],
    credentialAttributes: [{ name: 'degree', mimeType: 'text/plain', value: 'Bachelor of Science' }],
    metadata: { '_internal/exchange': { org: 'o-1' } },
    tags: { tag: 'value' },
  }
}

function theConnection(): object {
  return {
    id: '7a3b5c9e-1111-4f2a-9d3e-0a1b2c3d4e5f',
    createdAt: '2026-11-30T12:00:00.000Z',
    state: 'completed',
    role: 'responder',
    did: 'did:peer:2.Ez6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc',
    theirDid: 'did:peer:2.Ez6LSkpr9Cz4UrVCn6cpeYz8AZjJz6RZ3UXFxC1d4rbj4ZYkM',
    theirLabel: 'Holder',
    threadId: '9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d',
    protocol: 'https://didcomm.org/didexchange/1.1',
    outOfBandId: 'oob-1',
    connectionTypes: [],
    previousDids: [],
    previousTheirDids: [],
    metadata: {},
  }
}

/** One round: each object to its class, to JSON and cloned, as a stored record or a message is. */
function round(): string {
  const message = JsonTransformer.fromJSON(theMessage(), DidCommOfferCredentialV2Message)
  const exchange = JsonTransformer.fromJSON(theExchange(), DidCommCredentialExchangeRecord)
  const connection = JsonTransformer.fromJSON(theConnection(), DidCommConnectionRecord)
  return JSON.stringify([
    JsonTransformer.toJSON(message),
    JsonTransformer.toJSON(JsonTransformer.clone(exchange)),
    JsonTransformer.toJSON(JsonTransformer.clone(connection)),
  ])
}

/** class-transformer's own lookups back: the memo puts its wrappers on the storage object itself. */
function useStock(): void {
  const storage = defaultMetadataStorage as Record<string | symbol, unknown>
  for (const key of Reflect.ownKeys(storage)) {
    if (typeof storage[key] === 'function' || typeof key === 'symbol') delete storage[key]
  }
}

function cpuMsPerRound(rounds: number): number {
  const start = process.cpuUsage()
  for (let i = 0; i < rounds; i++) round()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000 / rounds
}

function main(): void {
  const stock = round()
  rememberTransformMetadata()
  const remembered = round()
  if (remembered !== stock) throw new Error('the memo changed what class-transformer produces')
  useStock()
  if (round() !== stock) throw new Error('the stock storage is not back')
  console.log(
    `class-transformer: ${ROUNDS} rounds per side, ABBA x2 (stock, memo, memo, stock), load ${loadavg()[0].toFixed(1)}`,
  )
  // Warm-up of both paths, then the timed rounds.
  cpuMsPerRound(ROUNDS / 4)
  rememberTransformMetadata()
  cpuMsPerRound(ROUNDS / 4)
  const times = { stock: [] as number[], memo: [] as number[] }
  for (const side of ['stock', 'memo', 'memo', 'stock', 'stock', 'memo', 'memo', 'stock'] as const) {
    if (side === 'stock') useStock()
    else rememberTransformMetadata()
    times[side].push(cpuMsPerRound(ROUNDS))
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
  console.log('| side | CPU ms per round (each pass) | mean |')
  console.log('|---|---|---|')
  for (const side of ['stock', 'memo'] as const) {
    console.log(`| ${side} | ${times[side].map((t) => t.toFixed(3)).join(', ')} | ${mean(times[side]).toFixed(3)} |`)
  }
  console.log(
    `ratio memo/stock (CPU): ${(mean(times.memo) / mean(times.stock)).toFixed(2)}; load ${loadavg()[0].toFixed(1)}`,
  )
}

main()
