// First: the modules imported after it are compiled through the code cache.
import '@idplane/common/compile-cache'
import 'reflect-metadata'

import path from 'node:path'

import { ConfigError, Logger } from '@idplane/common'
import { PGDATA_DIR_NAME, moveEarlyPgliteDataDirCopy, startPgliteDataDirCopy } from '@idplane/common/pglite-template'
import { compiledExports } from '@idplane/common/compiled-module'

import { loadConfig } from './config'
import { readLaunch, removeStagingOnExit, spareSettings, type SpareSettings } from './spare-launch'
import { outliveClosedOutput } from './supervisor-output'

/** Entry point: `node dist/agent/src/main.js`. Only this file and config.ts read process.env. */
async function main(): Promise<void> {
  const spare = spareSettings(process.env)
  const launch = spare ? await launchedSpare(spare) : process.env
  let config
  try {
    config = loadConfig(launch)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(2)
    }
    throw error
  }
  // A new embedded agent's database is copied from the template while the agent's modules load (on another core),
  // rather than after: the modules are loaded below, not imported above. A spare made its copy before it knew where.
  if (config.database.kind === 'pglite') {
    const pgdata = path.join(config.database.dataDir, PGDATA_DIR_NAME)
    if (spare?.stagingPgdata) moveEarlyPgliteDataDirCopy(spare.stagingPgdata, pgdata)
    else startPgliteDataDirCopy(pgdata)
  }
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
    if (process.stdin.readableEnded) shutdown('supervisor gone')
  }
  try {
    await agentProcess.start()
  } catch (error) {
    logger.error('Agent failed to start', { error })
    await agentProcess.stop().catch(() => undefined)
    process.exit(1)
  }
}

/**
 * A spare (common/agent-contract/spare.ts): copies the PGlite template and loads its modules ahead of need, then
 * waits for its launch environment on standard input. Exits 0 when the input ends first (its API is gone) or on
 * SIGTERM (its API stops it), 2 on a malformed line.
 */
async function launchedSpare(spare: SpareSettings): Promise<Record<string, string>> {
  // Its copy's process is stopped on exit before its folder is removed (the handlers run in this order).
  if (spare.stagingPgdata) startPgliteDataDirCopy(spare.stagingPgdata)
  removeStagingOnExit(spare)
  // Stopped by its API (SIGTERM): nothing to save, but the exit handlers above to run. Until it is launched only.
  const stop = () => process.exit(0)
  process.once('SIGTERM', stop)
  const launched = readLaunch(process.stdin)
  await loadAgentProcess()
  try {
    const launch = await launched
    process.off('SIGTERM', stop)
    if (launch) return launch
  } catch (error) {
    console.error(`Spare agent: ${(error as Error).message}`)
    process.exit(2)
  }
  process.exit(0)
}

async function loadAgentProcess(): Promise<typeof import('./agent-process.js')> {
  return compiledExports(await import('./agent-process.js'), 'AgentProcess')
}

void main()
