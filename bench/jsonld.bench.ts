/**
 * JSON-LD canonicalization as the agent does it for every Ed25519Signature2020 signature and check (URDNA2015, safe
 * mode, the agent's offline document loader): a credential, a presentation carrying it and a proof's options, per
 * round. Two copies of jsonld.js are loaded side by side, stock and with the agent's shared term definitions
 * (agent/src/formats/jsonld/shared-term-definitions.ts), and measured alternately (ABBA) in one run; both must
 * give the same N-Quads, which is checked before anything is timed.
 *
 *   npm run bench:jsonld
 *   BENCH_JSONLD_ROUNDS=500 npm run bench:jsonld
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'

import type { AgentContext } from '@credo-ts/core'

import { offlineDocumentLoader } from '../agent/src/formats/jsonld/offline-document-loader'
import { installJsonLdChanges, type JsonLdVariant } from '../test/helpers/jsonld-documents'
import { positiveIntEnv } from './api-harness'

const ROUNDS = positiveIntEnv('BENCH_JSONLD_ROUNDS', 300)

interface JsonLd {
  canonize(document: unknown, options: object): Promise<string>
}

/** A copy of jsonld.js of its own: its modules (and their caches) dropped from the require cache first. */
function loadJsonLd(variant: JsonLdVariant): JsonLd {
  for (const key of Object.keys(require.cache)) {
    if (
      key.includes('/@digitalcredentials/jsonld/') ||
      key.includes('shared-term-definitions') ||
      key.includes('processed-contexts')
    )
      delete require.cache[key]
  }
  installJsonLdChanges(variant)
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second copy of a module needs require
  return require('@digitalcredentials/jsonld') as JsonLd
}

const CONTEXTS = [
  'https://www.w3.org/2018/credentials/v1',
  'https://w3id.org/security/suites/ed25519-2020/v1',
  { EmployeeCredential: 'https://example.org/EmployeeCredential', name: 'https://schema.org/name' },
]
const credential = {
  '@context': CONTEXTS,
  type: ['VerifiableCredential', 'EmployeeCredential'],
  issuer: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
  issuanceDate: '2026-11-30T00:00:00Z',
  credentialSubject: { id: 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG', name: 'Ada' },
}
const presentation = {
  '@context': CONTEXTS,
  type: ['VerifiablePresentation'],
  verifiableCredential: [
    {
      ...credential,
      proof: {
        type: 'Ed25519Signature2020',
        created: '2026-11-30T00:00:00Z',
        verificationMethod: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK#key-1',
        proofPurpose: 'assertionMethod',
        proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKods5D2UAUL5n2Brbx',
      },
    },
  ],
}
const proofOptions = {
  '@context': CONTEXTS,
  type: 'Ed25519Signature2020',
  created: '2026-11-30T00:00:00Z',
  verificationMethod: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK#key-1',
  proofPurpose: 'assertionMethod',
}
const DOCUMENTS = [credential, presentation, proofOptions]

// The contexts used here are bundled; the loader's DID resolver is never asked.
const agentContext = { dependencyManager: { resolve: () => ({}) } } as unknown as AgentContext
const OPTIONS = {
  algorithm: 'URDNA2015',
  base: null,
  format: 'application/n-quads',
  safe: true,
  documentLoader: offlineDocumentLoader(agentContext),
}

async function canonizeAll(jsonld: JsonLd): Promise<string[]> {
  return Promise.all(DOCUMENTS.map((document) => jsonld.canonize(document, OPTIONS)))
}

/** CPU and wall time per round (the three documents), over ROUNDS rounds one after another. */
async function measure(jsonld: JsonLd): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now()
  const cpu = process.cpuUsage()
  for (let round = 0; round < ROUNDS; round++) {
    for (const document of DOCUMENTS) await jsonld.canonize(document, OPTIONS)
  }
  const used = process.cpuUsage(cpu)
  return { wallMs: (performance.now() - started) / ROUNDS, cpuMs: (used.user + used.system) / 1000 / ROUNDS }
}

async function main(): Promise<void> {
  const copies = { stock: loadJsonLd('stock'), sharing: loadJsonLd('sharing'), cached: loadJsonLd('cached') }
  const expected = JSON.stringify(await canonizeAll(copies.stock))
  for (const variant of ['sharing', 'cached'] as const) {
    // Twice: the second round is the one the cached copy answers from its cache.
    for (let check = 0; check < 2; check++) {
      if (JSON.stringify(await canonizeAll(copies[variant])) !== expected)
        throw new Error(`the ${variant} copy canonicalizes differently from stock`)
    }
  }
  for (let warm = 0; warm < 30; warm++) await Promise.all(Object.values(copies).map(canonizeAll))

  console.log(
    `load before: ${loadavg()[0].toFixed(2)}; ${ROUNDS} rounds of a credential, a presentation, proof options`,
  )
  const results: Record<JsonLdVariant, number[]> = { stock: [], sharing: [], cached: [] }
  const order: JsonLdVariant[] = ['stock', 'sharing', 'cached', 'cached', 'sharing', 'stock']
  for (const variant of order) {
    const { wallMs, cpuMs } = await measure(copies[variant])
    results[variant].push(cpuMs)
    console.log(`${variant.padEnd(8)} ${wallMs.toFixed(2)} ms per round, CPU ${cpuMs.toFixed(2)} ms`)
  }
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length
  const [stock, sharing, cached] = [mean(results.stock), mean(results.sharing), mean(results.cached)]
  console.log(`load after: ${loadavg()[0].toFixed(2)}`)
  console.log(
    `stock jsonld.js ${stock.toFixed(2)} ms CPU per round, shared term definitions ${sharing.toFixed(2)} ms, ` +
      `and processed contexts by key ${cached.toFixed(2)} ms: ratio to stock ${(sharing / stock).toFixed(2)} ` +
      `and ${(cached / stock).toFixed(2)}`,
  )
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
