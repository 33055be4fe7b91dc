import { silentLogger } from '@idplane/common'
import type { Express } from 'express'
import request from 'supertest'

import { IdplaneAdaptersModule } from '../../agent/src/adapters/idplane-adapters.module'
import { EncryptedKeyStorage } from '../../agent/src/adapters/kms/encrypted-key-storage'
import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import type { SqlClient } from '../../agent/src/adapters/sql/sql-client'
import { createAdminApp } from '../../agent/src/admin/admin-app'
import { AgentRuntime } from '../../agent/src/admin/agent-runtime'
import { buildAgent, type IdplaneAgent } from '../../agent/src/credo/build-agent'
import { LedgerClient } from '../../agent/src/ledger/ledger-client'
import { AgentMetrics } from '../../agent/src/metrics/agent-metrics'
import type { FakeLedger } from './fake-ledger'
import { freePort } from './ports'
import { OutboundTargetGuard } from '../../agent/src/transport/outbound-target-guard'

export const LEDGER_AGENT_API_KEY = 'ledger-agent-test-api-key'

export interface LedgerAgent {
  agent: IdplaneAgent
  app: Express
  endpoint: string
  post(path: string, body: unknown): request.Test
  get(path: string): request.Test
  close(): Promise<void>
}

/**
 * A real Credo agent in this process with its admin app, on the given ledger: PGlite in memory, or a schema of its
 * own on PostgreSQL when DATABASE_URL is set. DIDComm over HTTP on a free 127.0.0.1 port.
 */
export async function startLedgerAgent(ledger: Pick<FakeLedger, 'url' | 'token'>, label: string): Promise<LedgerAgent> {
  const sqlSchema = `agent_ledger_${label}_${Math.random().toString(36).slice(2, 10)}`
  const databaseUrl = process.env.DATABASE_URL
  const sql: SqlClient = databaseUrl ? await PgSqlClient.connect(databaseUrl, sqlSchema) : await PgliteSqlClient.open()
  await migrateSchema(sql)
  const port = await freePort()
  const endpoint = `http://127.0.0.1:${port}`
  const agent = buildAgent({
    endpoints: [endpoint],
    inboundPort: port,
    inboundHost: '127.0.0.1',
    logger: silentLogger,
    logLevel: 'error',
    adapters: new IdplaneAdaptersModule(sql, await EncryptedKeyStorage.open(sql, 'test-wallet-key')),
    ledger: new LedgerClient({ baseUrl: ledger.url, token: ledger.token, retryBaseMs: 10 }),
    // Test agents reach each other on loopback.
    outboundTargets: new OutboundTargetGuard(true),
  })
  await agent.initialize()
  const runtime = new AgentRuntime(label, [endpoint])
  runtime.setInitialized(agent)
  const app = createAdminApp({
    runtime,
    apiKey: LEDGER_AGENT_API_KEY,
    metrics: new AgentMetrics(),
    logger: silentLogger,
  })
  const auth = `Bearer ${LEDGER_AGENT_API_KEY}`
  return {
    agent,
    app,
    endpoint,
    post: (path, body) =>
      request(app)
        .post(path)
        .set('authorization', auth)
        .send(body as object),
    get: (path) => request(app).get(path).set('authorization', auth),
    close: async () => {
      await agent.shutdown()
      if (databaseUrl) await sql.query(`DROP SCHEMA IF EXISTS "${sqlSchema}" CASCADE`)
      await sql.close()
    },
  }
}
