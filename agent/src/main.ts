// First: the modules imported after it are compiled through the code cache.
import '@idplane/common/compile-cache'
import 'reflect-metadata'

import path from 'node:path'

import { ConfigError, Logger } from '@idplane/common'
import { PGDATA_DIR_NAME, startPgliteDataDirCopy } from '@idplane/common/pglite-template'
import { compiledExports } from '@idplane/common/compiled-module'

import { loadConfig } from './config'
import { outliveClosedOutput } from './supervisor-output'

/** Entry point: `node dist/agent/src/main.js`. Only this file and config.ts read process.env. */
async function main(): Promise<void> {
  let config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(2)
    }
    throw error
  }
  // A new embedded agent's database is copied from the template while the agent's modules load (on another core),
  // rather than after: the modules are loaded below, not imported above.
  if (config.database.kind === 'pglite') startPgliteDataDirCopy(path.join(config.database.dataDir, PGDATA_DIR_NAME))
  const { AgentProcess } = await loadAgentProcess()
  const logger = new Logger({ program: 'agent', agent: config.label }, config.logLevel)
  const agentProcess = new AgentProcess(config, logger)
  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('Stopping agent', { signal })
    const force = setTimeout(() => process.exit(1), 15000)
    force.unref()
    agentProcess.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('Stop failed', { error })
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  if (config.exitOnStdinClose) {
    // The supervising API holds the other end of this pipe; the kernel closes it however the API ends (SIGKILL
    // included), so an agent never outlives its supervisor and keeps its ports from the API's next start.
    // Its end is also the end of the pipes our logs go to: a log line must not end the stop it begins.
    outliveClosedOutput()
    process.stdin.on('end', () => shutdown('supervisor gone'))
    process.stdin.on('error', () => shutdown('supervisor gone'))
    process.stdin.resume()
  }
  try {
    await agentProcess.start()
  } catch (error) {
    logger.error('Agent failed to start', { error })
    await agentProcess.stop().catch(() => undefined)
    process.exit(1)
  }
}

async function loadAgentProcess(): Promise<typeof import('./agent-process.js')> {
  return compiledExports(await import('./agent-process.js'), 'AgentProcess')
}

void main()
