import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { freePort } from './ports'
import { testAgentSchema } from './test-schema'

/** Preloaded into the programs the tests spawn: they end when the test process that started them is gone. */
export const EXIT_WITH_TEST_PROCESS = path.join(__dirname, 'exit-with-test-process.cjs')

export const TEST_API_KEY = 'e2e-admin-api-key-0001'

export interface SpawnedAgent {
  label: string
  adminUrl: string
  endpoint: string
  dataDir: string
  process: ChildProcess
  call<T = unknown>(
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }>
  /** The same calls scoped to one tenant of this base agent (`X-Tenant-Id`). */
  asTenant(tenantId: string): Pick<SpawnedAgent, 'call'>
  stop(signal?: NodeJS.Signals): Promise<void>
}

export interface SpawnOptions {
  label: string
  dataDir?: string
  adminPort?: number
  inboundPort?: number
  env?: Record<string, string>
  /**
   * Where the agent keeps its records: `pglite` in its data directory; by default PostgreSQL when DATABASE_URL is set
   * (as the other agent helpers do; `pglite` for a test that opens the agent's files itself).
   */
  storage?: 'pglite'
}

/**
 * PostgreSQL storage when DATABASE_URL is set: a schema named after the data directory, so an agent started again on
 * the same directory finds its records, as with PGlite (dropped by `make test` once this process has ended). A PGlite
 * agent starts with about twice the CPU (its WASM engine and migrations), which the suite pays for every agent it
 * spawns.
 */
function storageEnv(dataDir: string, options: SpawnOptions): Record<string, string> {
  const url = process.env.DATABASE_URL
  if (!url || options.storage === 'pglite') return {}
  const schema = testAgentSchema(createHash('sha256').update(dataDir).digest('hex').slice(0, 20))
  return { AGENT_DATABASE_URL: url, AGENT_DATABASE_SCHEMA: schema }
}

/**
 * The data directories this helper makes live in one folder per test process, which `make test`
 * (scripts/test-all.sh) removes once that process is gone. A test may stop an agent and open its directory, or start
 * it again there, so nothing is removed at stop, and jest gives a test process no hook at its exit. Before, every
 * CI run left a few hundred megabytes of agent directories behind.
 */
const AGENTS_DIR = path.join(tmpdir(), `idplane-test-agents-${process.pid}`)

function makeDataDir(label: string): string {
  mkdirSync(AGENTS_DIR, { recursive: true, mode: 0o700 })
  return mkdtempSync(path.join(AGENTS_DIR, `agent-${label}-`))
}

/** Spawns `node dist/agent/src/main.js` (build first) on free 127.0.0.1 ports and waits for GET /agent = 200. */
export async function spawnAgent(options: SpawnOptions): Promise<SpawnedAgent> {
  const adminPort = options.adminPort ?? (await freePort())
  const inboundPort = options.inboundPort ?? (await freePort())
  const dataDir = options.dataDir ?? makeDataDir(options.label)
  const child = spawn(process.execPath, ['--require', EXIT_WITH_TEST_PROCESS, 'dist/agent/src/main.js'], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      PATH: process.env.PATH ?? '',
      AGENT_LABEL: options.label,
      AGENT_ADMIN_PORT: String(adminPort),
      AGENT_INBOUND_PORT: String(inboundPort),
      AGENT_API_KEY: TEST_API_KEY,
      AGENT_WALLET_KEY: `wallet-key-of-${options.label}-0001`,
      AGENT_DATA_DIR: dataDir,
      ...storageEnv(dataDir, options),
      LOG_LEVEL: process.env.AGENT_TEST_LOG ? 'debug' : 'warn',
      // Test agents reach each other on loopback (production refuses private targets).
      AGENT_ALLOW_PRIVATE_TARGETS: 'true',
      ...options.env,
    },
    stdio: ['ignore', process.env.AGENT_TEST_LOG ? 'inherit' : 'ignore', 'inherit'],
  })
  const adminUrl = `http://127.0.0.1:${adminPort}`
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const agent: SpawnedAgent = {
    label: options.label,
    adminUrl,
    endpoint: `http://127.0.0.1:${inboundPort}`,
    dataDir,
    process: child,
    async call<T>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${adminUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as T }
    },
    asTenant(tenantId: string) {
      return {
        call: <T>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
          agent.call<T>(method, route, body, { ...headers, 'x-tenant-id': tenantId }),
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
  // Generous: a cold agent start (wallet creation, Credo modules) takes seconds alone, but over a minute on a
  // 2-core machine at a load of 20+; a slow start is not what these tests check.
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Agent ${options.label} exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${adminUrl}/agent`)
      if (response.status === 200) return agent
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await agent.stop('SIGKILL')
      throw new Error(`Agent ${options.label} did not become ready`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * Polls `probe` every 200 ms until it answers something. `explain`, when given, describes on a timeout what the
 * processes showed instead (read then), so a failure on a loaded CI machine can be read from the log.
 */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 30000,
  explain?: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) {
      const shown = explain ? await explain().catch((error: unknown) => `(explaining failed: ${String(error)})`) : ''
      throw new Error(`Timed out waiting${shown ? `: ${shown}` : ''}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
