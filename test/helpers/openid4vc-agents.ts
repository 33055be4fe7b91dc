import { Logger, silentLogger } from '@idplane/common'

import { IdplaneAdaptersModule } from '../../agent/src/adapters/idplane-adapters.module'
import { EncryptedKeyStorage } from '../../agent/src/adapters/kms/encrypted-key-storage'
import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import type { SqlClient } from '../../agent/src/adapters/sql/sql-client'
import type { WriteEvents } from '../../agent/src/adapters/storage/write-events'
import { buildAgent, type IdplaneAgent } from '../../agent/src/credo/build-agent'
import { IdplaneOpenId4VcModule } from '../../agent/src/openid4vc/openid4vc.module'
import { OutboundTargetGuard } from '../../agent/src/transport/outbound-target-guard'
import { randomSchemaName } from './agent-in-process'
import { freePort } from './ports'

export interface OpenId4VcTestAgent {
  agent: IdplaneAgent
  /** The public base URL (AGENT_ENDPOINT): `http://localhost:<inbound port>`. */
  endpoint: string
  port: number
  sql: SqlClient
  close(): Promise<void>
}

/**
 * An initialized agent with OpenID4VC (issuer, verifier, holder, x509) whose public endpoints share the DIDComm
 * inbound port, as AGENT_OPENID4VC=true gives. `localhost` in the endpoint so verification certificates can name
 * it (x509_san_dns). On the machine's PostgreSQL when DATABASE_URL is set (a fresh schema), else in-memory PGlite.
 */
export async function startOpenId4VcAgent(
  options: {
    events?: WriteEvents
    /** Where the agent may connect. @default private targets allowed (the agents of a test are on loopback) */
    outboundTargets?: OutboundTargetGuard
  } = {},
): Promise<OpenId4VcTestAgent> {
  const databaseUrl = process.env.DATABASE_URL
  const schema = randomSchemaName('oid4vc_test')
  const sql = databaseUrl ? await PgSqlClient.connect(databaseUrl, schema) : await PgliteSqlClient.open()
  await migrateSchema(sql)
  const keys = await EncryptedKeyStorage.open(sql, 'test-wallet-key')
  const port = await freePort()
  const endpoint = `http://localhost:${port}`
  const agent = buildAgent({
    endpoints: [endpoint],
    inboundPort: port,
    logger: process.env.AGENT_TEST_LOG ? new Logger({ port }, 'debug') : silentLogger,
    logLevel: process.env.AGENT_TEST_LOG ? 'debug' : 'error',
    adapters: new IdplaneAdaptersModule(sql, keys, { events: options.events }),
    openId4Vc: new IdplaneOpenId4VcModule({ publicBaseUrl: endpoint }),
    outboundTargets: options.outboundTargets ?? new OutboundTargetGuard(true),
  })
  await agent.initialize()
  return {
    agent,
    endpoint,
    port,
    sql,
    close: async () => {
      await agent.shutdown()
      if (databaseUrl) await sql.query(`DROP SCHEMA "${schema}" CASCADE`)
      await sql.close()
    },
  }
}
