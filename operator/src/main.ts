// First: the modules imported after it are compiled through the code cache.
import '@idplane/common/compile-cache'
import 'reflect-metadata'
import { Logger } from '@idplane/common'
import { loadConfig } from './config'
import { loadKubeConfig } from './kube/client'
import { Operator } from './operator'

async function main(): Promise<void> {
  const config = loadConfig(process.env)
  const logger = new Logger({ program: 'operator' }, config.logLevel)
  const operator = new Operator({ config, kubeConfig: loadKubeConfig(config.kubeconfig), logger, defaultMetrics: true })
  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('Received signal, shutting down', { signal })
    operator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('Shutdown failed', { error })
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  await operator.start()
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
})
