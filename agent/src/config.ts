import path from 'node:path'

import { EnvReader, type LogLevel } from '@idplane/common'

import { SCHEMA_NAME_PATTERN } from './adapters/sql/pg-sql-client'

/** @default 8002, the first agent's admin port (DESIGN.md, port rules) */
export const DEFAULT_ADMIN_PORT = 8002
/** @default 9002, the first agent's inbound port */
export const DEFAULT_INBOUND_PORT = 9002
/** @default 'agent' */
export const DEFAULT_LABEL = 'agent'

export type DatabaseConfig =
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string }
  | { readonly kind: 'pglite'; readonly dataDir: string; readonly sharedBuffersMb: number }

export interface AgentConfig {
  readonly label: string
  readonly adminPort: number
  readonly inboundPort: number
  readonly endpoint: string
  readonly apiKey: string
  readonly walletKey: string
  readonly database: DatabaseConfig
  readonly events: { readonly url: string; readonly token: string } | undefined
  readonly logLevel: LogLevel
  /** Megabytes of record JSON kept in memory to answer reads (RecordMirror); 0 sends every read to SQL. */
  readonly recordMirrorMb: number
  /** V8 favours memory over speed, and garbage is collected when the agent goes idle (idle-collector.ts). */
  readonly isMemorySaving: boolean
}

/**
 * PGlite's `shared_buffers`. PostgreSQL's 128 MB default is resident in PGlite's WASM heap of every agent process;
 * an agent's working set is a few megabytes (docs/benchmarks.md, agent memory).
 * @default 16 megabytes
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16

/** @default true: the agent keeps its heap small (docs/benchmarks.md, agent memory) */
export const DEFAULT_MEMORY_SAVING = true

/** @default 64 megabytes of mirrored record JSON */
export const DEFAULT_RECORD_MIRROR_MB = 64

/**
 * Reads and validates the agent's environment once at start. Every bad variable is reported in one
 * ConfigError, by name and reason, never by value (AGENT_API_KEY and AGENT_WALLET_KEY are secrets).
 * @throws {ConfigError}
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): AgentConfig {
  const env = new EnvReader(source)
  const label = env.string('AGENT_LABEL', DEFAULT_LABEL)
  const adminPort = env.int('AGENT_ADMIN_PORT', DEFAULT_ADMIN_PORT, { min: 1, max: 65535 })
  const inboundPort = env.int('AGENT_INBOUND_PORT', DEFAULT_INBOUND_PORT, { min: 1, max: 65535 })
  if (adminPort === inboundPort) env.problem('AGENT_INBOUND_PORT', 'must differ from AGENT_ADMIN_PORT')
  const endpoint = env.url('AGENT_ENDPOINT', ['http', 'https']) ?? `http://127.0.0.1:${inboundPort}`
  const apiKey = env.required('AGENT_API_KEY')
  if (apiKey !== '' && apiKey.length < 16) env.problem('AGENT_API_KEY', 'must be at least 16 characters')
  const walletKey = env.required('AGENT_WALLET_KEY')
  if (walletKey !== '' && walletKey.length < 16) env.problem('AGENT_WALLET_KEY', 'must be at least 16 characters')
  const databaseUrl = env.url('AGENT_DATABASE_URL', ['postgres', 'postgresql'])
  let database: DatabaseConfig
  if (databaseUrl) {
    const schema = env.string('AGENT_DATABASE_SCHEMA', `agent_${label.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`)
    if (!SCHEMA_NAME_PATTERN.test(schema)) env.problem('AGENT_DATABASE_SCHEMA', 'must be a lower-case SQL identifier')
    database = { kind: 'postgres', url: databaseUrl, schema }
  } else {
    const safeLabel = label.replace(/[^A-Za-z0-9_.-]/g, '_')
    database = {
      kind: 'pglite',
      dataDir: path.resolve(env.string('AGENT_DATA_DIR', `./data/agent-${safeLabel}`)),
      sharedBuffersMb: env.int('AGENT_PGLITE_SHARED_BUFFERS_MB', DEFAULT_PGLITE_SHARED_BUFFERS_MB, {
        min: 1,
        max: 4096,
      }),
    }
  }
  const eventUrl = env.url('AGENT_EVENT_URL', ['http', 'https'])
  const eventToken = env.string('AGENT_EVENT_TOKEN')
  if (eventUrl && !eventToken) env.problem('AGENT_EVENT_TOKEN', 'is required when AGENT_EVENT_URL is set')
  const logLevel = env.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info')
  const recordMirrorMb = env.int('AGENT_RECORD_MIRROR_MB', DEFAULT_RECORD_MIRROR_MB, { min: 0, max: 65536 })
  const isMemorySaving = env.bool('AGENT_MEMORY_SAVING', DEFAULT_MEMORY_SAVING)
  env.assertValid('agent')
  return {
    label,
    adminPort,
    inboundPort,
    endpoint,
    apiKey,
    walletKey,
    database,
    events: eventUrl && eventToken ? { url: eventUrl, token: eventToken } : undefined,
    logLevel,
    recordMirrorMb,
    isMemorySaving,
  }
}
