/**
 * A holder's candidate credentials for a DIF Presentation Exchange request, in a wallet of N JSON-LD credentials of
 * one type of which one can answer (each has its own degree name; the request asks for one name): the query Credo
 * makes for the request's schema, answered by the agent's mirrored store on PGlite, measured two ways alternately
 * (ABBA) in one process:
 *
 * - rows narrowed first (the agent since 2026-12-04): the store asks the narrowing (candidate-prefilter.ts) about each
 *   matching row before it makes an instance (agent/src/adapters/storage/row-narrowing.ts);
 * - whole, then instances tested (the peer: the agent before): every matching row copied or parsed into an instance,
 *   the instances then tested, each credential's encoded form remembered per record version as the agent did.
 *
 * Each way gets a reader of its own (a new store over the same database, as after an agent's start), so its first
 * query pays what a first query after a start pays; the later ones show the steady state. CPU of this process per
 * query; both ways must keep the same single credential, which is checked.
 *
 *   npm run bench:pe-candidates
 *   BENCH_CREDENTIALS=5000 BENCH_QUERIES=8 npm run bench:pe-candidates
 *
 * The last line is `ms per query: N (whole M, ratio R)` over the queries after the first.
 */
import 'reflect-metadata'
import { loadavg } from 'node:os'

import { type AgentContext, JsonTransformer, W3cCredentialRecord, W3cJsonLdVerifiableCredential } from '@credo-ts/core'

import { PgliteSqlClient } from '../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../agent/src/adapters/sql/schema-migrations'
import { MirroredStorageService } from '../agent/src/adapters/storage/mirrored-storage.service'
import { withRowNarrowing } from '../agent/src/adapters/storage/row-narrowing'
import { SqlStorageService } from '../agent/src/adapters/storage/sql-storage.service'
import {
  mayMatchDefinition,
  type PresentationDefinitionV1Like,
} from '../agent/src/formats/presentation-exchange/candidate-prefilter'
import { mayMatchRow } from '../agent/src/formats/presentation-exchange/narrowing-presentation-exchange'
import {
  aDegreeCredentialWithProof,
  aDegreePresentationDefinition,
  EXAMPLES_CONTEXT,
} from '../test/fixtures/degree-credential'
import { positiveIntEnv } from './api-harness'

const CREDENTIALS = positiveIntEnv('BENCH_CREDENTIALS', 2000)
const QUERIES = positiveIntEnv('BENCH_QUERIES', 6)

const holder = { contextCorrelationId: 'holder' } as unknown as AgentContext
/** What Credo asks the store for the definition's schema (the examples context every degree credential has). */
const QUERY = {
  $or: [{ expandedTypes: [EXAMPLES_CONTEXT] }, { contexts: [EXAMPLES_CONTEXT] }, { types: [EXAMPLES_CONTEXT] }],
}

function aStoredDegree(index: number): W3cCredentialRecord {
  const credential = JsonTransformer.fromJSON(
    aDegreeCredentialWithProof('did:key:z6MkIssuer', 'did:key:z6MkHolder', `Degree ${index}`),
    W3cJsonLdVerifiableCredential,
  )
  return new W3cCredentialRecord({ credentialInstances: [{ credential: credential.encoded }], tags: {} })
}

type Store = MirroredStorageService<W3cCredentialRecord>
type Way = (store: Store, definition: PresentationDefinitionV1Like) => Promise<W3cCredentialRecord[]>

const narrowedFirst: Way = (store, definition) =>
  withRowNarrowing({ recordType: W3cCredentialRecord.type, mayKeep: (row) => mayMatchRow(row, definition) }, () =>
    store.findByQuery(holder, W3cCredentialRecord, QUERY as never),
  )

const encodedByVersion = new Map<string, object>()
const wholeThenTested: Way = async (store, definition) =>
  (await store.findByQuery(holder, W3cCredentialRecord, QUERY as never)).filter((record) => {
    const version = `${record.id}:${(record.updatedAt ?? record.createdAt).getTime()}`
    let encoded = encodedByVersion.get(version)
    if (!encoded) encodedByVersion.set(version, (encoded = record.firstCredential.encoded as object))
    return mayMatchDefinition(definition, encoded)
  })

async function main(): Promise<void> {
  const sql = await PgliteSqlClient.open()
  try {
    await migrateSchema(sql)
    const writer: Store = new MirroredStorageService(new SqlStorageService(sql, {}))
    for (let index = 0; index < CREDENTIALS; index++) await writer.save(holder, aStoredDegree(index))
    const wanted = `Degree ${CREDENTIALS - 1}`
    const definition = aDegreePresentationDefinition([
      { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: wanted } },
    ]) as unknown as PresentationDefinitionV1Like
    const ways: [string, Way][] = [
      ['rows narrowed first', narrowedFirst],
      ['whole, then instances tested', wholeThenTested],
    ]
    const rounds = [...ways, ...[...ways].reverse()] // ABBA
    console.log(
      `bench:pe-candidates: ${CREDENTIALS} credentials, ${QUERIES} queries per way and round, ${rounds.length} rounds (ABBA), load ${loadavg()[0].toFixed(2)}`,
    )

    const later: Record<string, number[]> = {}
    for (const [name, way] of rounds) {
      const reader: Store = new MirroredStorageService(new SqlStorageService(sql, {}))
      const times: number[] = []
      for (let query = 0; query < QUERIES; query++) {
        const before = process.cpuUsage()
        const kept = await way(reader, definition)
        const used = process.cpuUsage(before)
        times.push((used.user + used.system) / 1000)
        const names = kept.map((record) => JSON.stringify(record.firstCredential.encoded))
        if (names.length !== 1 || !names[0].includes(wanted))
          throw new Error(`${name} kept ${names.length} credentials`)
      }
      ;(later[name] ??= []).push(...times.slice(1))
      console.log(
        `${name}: first query ${times[0].toFixed(1)} ms, then ${times
          .slice(1)
          .map((time) => time.toFixed(1))
          .join(' ')} ms of CPU`,
      )
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
    const narrowed = mean(later['rows narrowed first'])
    const whole = mean(later['whole, then instances tested'])
    console.log(
      `ms per query: ${narrowed.toFixed(1)} (whole ${whole.toFixed(1)}, ratio ${(narrowed / whole).toFixed(2)})`,
    )
  } finally {
    await sql.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
