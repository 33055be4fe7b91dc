import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { silentLogger } from '@idplane/common'
import { createRuntime, type Runtime } from '../../api/src/container'
import { loadConfig, type Config } from '../../api/src/infra/config'
import { configSectionsOf } from '../../api/src/infra/module-registry'
import { API_MODULES } from '../../api/src/modules'
import { TEST_SCRYPT_LOG_N } from './api'
import { deleteApiQueues } from './broker'
import { freshDatabase, type FreshDatabase } from './database'

export interface IdleApiRuntime {
  runtime: Runtime
  database: FreshDatabase
  close(): Promise<void>
}

/**
 * The API's container on a fresh database of the path the environment chooses (PGlite and the in-process queue, or
 * DATABASE_URL and AMQP_URL), with no workers: no relay sends or claims, no timer prunes, so a test drives the
 * repositories itself. `env` adds settings.
 */
export async function startIdleApiRuntime(env: Record<string, string> = {}): Promise<IdleApiRuntime> {
  const database = await freshDatabase()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-runtime-'))
  const queuePrefix = `test-${randomBytes(4).toString('hex')}.`
  const loaded = loadConfig(
    {
      DATA_DIR: dataDir,
      AMQP_URL: process.env.AMQP_URL,
      QUEUE_NAME_PREFIX: queuePrefix,
      LOG_LEVEL: 'error',
      AGENT_SPARES: '0',
      ...env,
    },
    configSectionsOf(API_MODULES),
  )
  const config: Config = { ...loaded, database: database.target, isEmbedded: database.kind === 'pglite' }
  const runtime = await createRuntime(config, silentLogger, {
    passwordHashLogN: TEST_SCRYPT_LOG_N,
    startWorkers: false,
  })
  return {
    runtime,
    database,
    close: async () => {
      await runtime.close()
      if (config.queue.kind === 'amqp') await deleteApiQueues(queuePrefix, config.queue.url)
      await database.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
