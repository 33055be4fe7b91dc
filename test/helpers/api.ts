import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Express } from 'express'
import { Logger, silentLogger } from '@idplane/common'
import { loadConfig, type Config } from '../../api/src/infra/config'
import { createRuntime, type Runtime } from '../../api/src/container'
import { createApp } from '../../api/src/app'
import { configSectionsOf } from '../../api/src/infra/module-registry'
import { API_MODULES } from '../../api/src/modules'
import { freshDatabase, type FreshDatabase } from './database'
import { randomBytes } from 'node:crypto'
import { deleteApiQueues } from './broker'

export interface TestApi {
  app: Express
  runtime: Runtime
  config: Config
  dataDir: string
  database: FreshDatabase
  stop(): Promise<void>
}

/** Low scrypt cost: tests hash hundreds of passwords; production keeps the OWASP default. */
export const TEST_SCRYPT_LOG_N = 12

/**
 * The API on a fresh database with a private data dir. DATABASE_URL / AMQP_URL from the environment choose
 * the real services (CI) or the embedded defaults, exactly as in production.
 */
export async function startApi(
  env: Record<string, string> = {},
  options: {
    logger?: Logger
    /** scrypt's cost, production's where a test measures hashing. */ passwordHashLogN?: number
  } = {},
): Promise<TestApi> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-api-'))
  const database = await freshDatabase()
  // Test files on one broker must not consume each other's mail: each gets its own queue names.
  const queuePrefix = `test-${randomBytes(4).toString('hex')}.`
  const baseEnv: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    AMQP_URL: process.env.AMQP_URL,
    QUEUE_NAME_PREFIX: queuePrefix,
    LOG_LEVEL: 'error',
    // No base-wallet agent process for every test that touches a wallet route; cloud-wallet-managed tests ask for one.
    CLOUD_WALLET_BASE_AGENT: 'external',
    // Agents and receivers of tests listen on loopback; tests of the refusal pass 'false' (production's default).
    NETWORK_ALLOW_PRIVATE_TARGETS: 'true',
    // No spare agent process beside every test's agents (CI's CPU); agents-spare.int.test turns it on.
    AGENT_SPARES: '0',
    ...env,
  }
  const loaded = loadConfig(baseEnv, configSectionsOf(API_MODULES))
  const config: Config = { ...loaded, database: database.target, isEmbedded: database.kind === 'pglite' }
  const runtime = await createRuntime(config, options.logger ?? silentLogger, {
    passwordHashLogN: options.passwordHashLogN ?? TEST_SCRYPT_LOG_N,
  })
  const app = createApp(runtime.container)
  return {
    app,
    runtime,
    config,
    dataDir,
    database,
    stop: async () => {
      await runtime.close()
      if (config.queue.kind === 'amqp') {
        await deleteApiQueues(queuePrefix, config.queue.url)
      }
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
