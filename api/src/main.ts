// First: the modules imported after it are compiled through the code cache.
import '@idplane/common/compile-cache'
import 'reflect-metadata'
import type { Server } from 'node:http'
import { Registry } from 'prom-client'
import { Logger, ConfigError, restrictFileCreation, restrictTree } from '@idplane/common'
import { closeServer } from '@idplane/common/net/close-server'
import { keepIdleConnections } from '@idplane/common/net/idle-connections'
import { loadConfig } from './infra/config'
import { createRuntime } from './container'
import { createApp } from './app'
import { configSectionsOf } from './infra/module-registry'
import { API_MODULES } from './modules'
import { createMetricsApp } from './infra/http/metrics'

/** @default 25 s: inside Kubernetes' default 30 s termination grace period. */
const SHUTDOWN_TIMEOUT_MS = 25_000

async function main(): Promise<void> {
  let config
  try {
    config = loadConfig(process.env, configSectionsOf(API_MODULES))
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(2)
    }
    throw error
  }
  // Embedded data (PGlite, queue, mail files, JWT keys, secrets, agents' data) is the API user's only.
  restrictFileCreation()
  restrictTree(config.dataDir)
  const logger = new Logger({ program: 'api' }, config.logLevel)
  const runtime = await createRuntime(config, logger)
  const app = createApp(runtime.container)
  const server: Server = app.listen(config.http.port, config.http.host, () => {
    logger.info('Started API', {
      port: config.http.port,
      host: config.http.host,
      embedded: config.isEmbedded,
      publicUrl: config.http.publicUrl,
    })
  })
  keepIdleConnections(server, config.http.keepAliveTimeoutMs)

  const metricsPort = config.http.metricsPort
  const metricsServer =
    metricsPort === undefined
      ? undefined
      : createMetricsApp(runtime.container.get<Registry>(Registry)).listen(metricsPort, config.http.host, () => {
          logger.info('Serving metrics', { port: metricsPort, host: config.http.host })
        })

  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('Stopping API', { signal })
    const timer = setTimeout(() => {
      logger.error('Shutdown timed out', { timeoutMs: SHUTDOWN_TIMEOUT_MS })
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS)
    timer.unref()
    closeServer(server)
      .then(() => runtime.close())
      .then(() => {
        logger.info('Stopped API')
        process.exit(0)
      })
      .catch((error: unknown) => {
        logger.error('Shutdown failed', { error: error as Error })
        process.exit(1)
      })
    metricsServer?.close()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((error: unknown) => {
  console.error(`idplane api failed to start: ${(error as Error).message}`)
  process.exit(1)
})
