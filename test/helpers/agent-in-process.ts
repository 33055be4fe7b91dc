import { Logger, silentLogger } from '@idplane/common'

import { IdplaneAdaptersModule } from '../../agent/src/adapters/idplane-adapters.module'
import { EncryptedKeyStorage } from '../../agent/src/adapters/kms/encrypted-key-storage'
import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import type { SqlClient } from '../../agent/src/adapters/sql/sql-client'
import { buildAgent, type IdplaneAgent } from '../../agent/src/credo/build-agent'
import { OutboundQueue, type OutboundQueueOptions } from '../../agent/src/transport/outbound-queue'
import { TakenEnvelopes } from '../../agent/src/transport/taken-envelopes'
import { OutboundTargetGuard } from '../../agent/src/transport/outbound-target-guard'

import { freePort } from './ports'
import { TEST_DATABASE_URL, testAgentSchema } from './test-schema'

export interface InProcessAgent {
  agent: IdplaneAgent
  /** The agent's own schema, for tests that look at what it stored. */
  sql: SqlClient
  /** The agent's schema and port: a restart on them is the same agent (its records, keys and queue). */
  schema: string
  port: number
  /** The durable outbound queue, when the agent was started with one. */
  outboundQueue?: OutboundQueue
  /** Shuts the agent down and drops its schema, unless `keepSchema` (to start it again). */
  close(options?: { keepSchema?: boolean }): Promise<void>
}

export interface InProcessAgentOptions {
  /** An existing agent's schema and port: starts that agent again. */
  schema?: string
  port?: number
  /** A durable outbound queue with these settings (the agent program always has one). */
  outboundQueue?: OutboundQueueOptions
  /** Where the agent may connect. @default private targets allowed (test agents reach each other on loopback) */
  outboundTargets?: OutboundTargetGuard
}

// Each agent gets a schema of its own in TEST_DATABASE_URL, dropped on close.
export { TEST_DATABASE_URL } from './test-schema'

/** A fresh schema for an agent of this test process (test-schema.ts: `make test` drops any left behind). */
export function randomSchemaName(prefix = 'test'): string {
  return testAgentSchema(`${prefix}_${Math.random().toString(36).slice(2, 10)}`)
}

/** Attempts at a free port: between freePort's release and the agent's listen another socket may take the port. */
const PORT_ATTEMPTS = 5

/**
 * The agent `build` makes for a port, initialized: on `fixedPort`, or on a free port, another one when a socket of a
 * suite running beside took the first before the agent listened (EADDRINUSE, seen in a `make test` run).
 */
async function initializedOnFreePort(
  fixedPort: number | undefined,
  build: (port: number) => IdplaneAgent,
): Promise<{ agent: IdplaneAgent; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort())
    const agent = build(port)
    try {
      await agent.initialize()
      return { agent, port }
    } catch (error) {
      if (fixedPort !== undefined || attempt >= PORT_ATTEMPTS || !isAddressInUse(error)) throw error
      await agent.shutdown().catch(() => undefined)
    }
  }
}

/**
 * Whether the error, or one it wraps (Credo wraps a module's start failure), is EADDRINUSE. Read by shape: Node's own
 * errors are not `instanceof Error` inside Jest's sandbox.
 */
function isAddressInUse(error: unknown): boolean {
  let current = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === 'EADDRINUSE') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

/**
 * One initialized agent on a fresh PostgreSQL schema, DIDComm over HTTP on a free 127.0.0.1 port. PGlite is
 * exercised by the spawned agent processes and by the storage integration test (in memory).
 */
export async function startInProcessAgent(options: InProcessAgentOptions = {}): Promise<InProcessAgent> {
  const schema = options.schema ?? randomSchemaName()
  const sql = await PgSqlClient.connect(TEST_DATABASE_URL, schema)
  await migrateSchema(sql)
  const keys = await EncryptedKeyStorage.open(sql, 'test-wallet-key')
  const outboundQueue = options.outboundQueue && new OutboundQueue(sql, options.outboundQueue, silentLogger)
  // With the queue, as the agent program: envelopes sent again are dropped.
  const takenEnvelopes = options.outboundQueue && new TakenEnvelopes(sql, silentLogger)
  const { agent, port } = await initializedOnFreePort(options.port, (port) =>
    buildAgent({
      endpoints: [`http://127.0.0.1:${port}`],
      inboundPort: port,
      // AGENT_TEST_LOG=debug shows the agents' (and Credo's) log lines when a flow fails.
      logger: process.env.AGENT_TEST_LOG ? new Logger({ port }, 'debug') : silentLogger,
      logLevel: process.env.AGENT_TEST_LOG ? 'debug' : 'error',
      adapters: new IdplaneAdaptersModule(sql, keys),
      outboundTargets: options.outboundTargets ?? new OutboundTargetGuard(true),
      outboundQueue,
      takenEnvelopes,
    }),
  )
  return {
    agent,
    sql,
    schema,
    port,
    outboundQueue,
    close: async ({ keepSchema = false } = {}) => {
      await agent.shutdown()
      if (!keepSchema) await sql.query(`DROP SCHEMA "${schema}" CASCADE`)
      await sql.close()
    },
  }
}

/**
 * Connects `holder` to `issuer` through an out-of-band invitation of the issuer (both accept automatically).
 * @returns the issuer's connection id, once the holder's side is connected
 */
export async function connectAgents(
  issuer: { agent: IdplaneAgent },
  holder: { agent: IdplaneAgent },
  timeoutMs = 20_000,
): Promise<string> {
  const oob = await issuer.agent.didcomm.oob.createInvitation({ label: 'issuer', autoAcceptConnection: true })
  const { connectionRecord } = await holder.agent.didcomm.oob.receiveInvitation(oob.outOfBandInvitation, {
    label: 'holder',
    autoAcceptConnection: true,
    autoAcceptInvitation: true,
  })
  if (!connectionRecord) throw new Error('no connection')
  await holder.agent.didcomm.connections.returnWhenIsConnected(connectionRecord.id, { timeoutMs })
  const [issuerConnection] = await issuer.agent.didcomm.connections.findAllByOutOfBandId(oob.id)
  return issuerConnection.id
}

/** A did:key of a new Ed25519 key in the agent's wallet. */
export async function anEd25519DidKey(agent: IdplaneAgent): Promise<string> {
  const ed25519 = { createKey: { type: { kty: 'OKP' as const, crv: 'Ed25519' as const } } }
  return String((await agent.dids.create({ method: 'key', options: ed25519 })).didState.did)
}
