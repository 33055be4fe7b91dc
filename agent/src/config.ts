import { isIP } from 'node:net'
import path from 'node:path'

import { EnvReader, type LogLevel } from '@idplane/common'
import { AGENT_ENDPOINT_PROTOCOLS } from '@idplane/common/agent-contract/endpoint'
import { AGENT_ENV } from '@idplane/common/agent-contract/launch-env'

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
  /**
   * Base URL of the platform ledger (AGENT_LEDGER_URL; by default the origin of AGENT_EVENT_URL, as the API serves
   * both). Undefined: no ledger, and did:indy, did:sov and ledger AnonCreds identifiers answer a clear error.
   */
  readonly ledgerUrl: string | undefined
  readonly logLevel: LogLevel
  /** Megabytes of record JSON kept in memory to answer reads (RecordMirror); 0 sends every read to SQL. */
  readonly recordMirrorMb: number
  /** Address both ports listen on; undefined: every interface (pods). */
  readonly bindHost: string | undefined
  /** Stop when standard input closes: the supervising API is gone (AGENT_EXIT_ON_STDIN_CLOSE). */
  readonly exitOnStdinClose: boolean
  /** V8 favours memory over speed, and garbage is collected when the agent goes idle (idle-collector.ts). */
  readonly isMemorySaving: boolean
  /**
   * AGENT_ALLOW_PRIVATE_TARGETS (the platform's NETWORK_ALLOW_PRIVATE_TARGETS): invitation URLs and DIDComm
   * endpoints may be private or loopback addresses. Off: refused (transport/outbound-target-guard.ts).
   */
  readonly allowPrivateTargets: boolean
  /** TEST-ONLY: directory agents on one machine share as their AnonCreds registry (AGENT_ANONCREDS_TEST_REGISTRY_DIR). */
  readonly anonCredsTestRegistryDir: string | undefined
  /**
   * OpenID4VC issuer, verifier and holder with x509 certificates (AGENT_OPENID4VC); their public endpoints are
   * served on the inbound port under the endpoint. Off: `@credo-ts/openid4vc` is never loaded.
   */
  readonly isOpenId4VcEnabled: boolean
  /**
   * Delivery attempts of a queued outbound DIDComm message (AGENT_OUTBOUND_MAX_ATTEMPTS) before it is dropped
   * (transport/outbound-queue.ts); the first, failed, attempt counts.
   */
  readonly outboundMaxAttempts: number
  /**
   * Seconds an exchange may wait for the other agent's answer before it ends `abandoned` with the reason
   * (AGENT_EXCHANGE_TIMEOUT_SECONDS, credo/exchange-timeouts.ts); 0 never ends one.
   */
  readonly exchangeTimeoutSeconds: number
}

/**
 * PGlite's `shared_buffers`. PostgreSQL's 128 MB default is resident in PGlite's WASM heap of every agent process;
 * an agent's working set is a few megabytes, and 8 rather than 16 keeps an idle agent under 250 MB after 300
 * exchanges at the same CPU per exchange (docs/benchmarks.md, agent memory). Raise it for a large database.
 * @default 8 megabytes
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 8

/** @default true: the agent keeps its heap small (docs/benchmarks.md, agent memory) */
export const DEFAULT_MEMORY_SAVING = true

/** @default false: OpenID4VC is for organizations that use it (the API's flag turns it on for their agents) */
export const DEFAULT_OPENID4VC = false
/** @default false: private, loopback and metadata targets refused (production) */
export const DEFAULT_ALLOW_PRIVATE_TARGETS = false

/** @default 100 attempts; with the backoff capped at 5 minutes, about 8 hours of retries */
export const DEFAULT_OUTBOUND_MAX_ATTEMPTS = 100

/** @default 900 seconds (15 minutes) without an answer from the other agent */
export const DEFAULT_EXCHANGE_TIMEOUT_SECONDS = 900

/** @default 64 megabytes of mirrored record JSON */
export const DEFAULT_RECORD_MIRROR_MB = 64

/** Test-only, so not in the launch contract (AGENT_ENV): launchers never set it; tests and developers do. */
export const ANONCREDS_TEST_REGISTRY_DIR_ENV = 'AGENT_ANONCREDS_TEST_REGISTRY_DIR'

/**
 * Reads and validates the agent's environment once at start. Every bad variable is reported in one
 * ConfigError, by name and reason, never by value (AGENT_API_KEY and AGENT_WALLET_KEY are secrets).
 * @throws {ConfigError}
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): AgentConfig {
  const env = new EnvReader(source)
  const label = env.string(AGENT_ENV.label, DEFAULT_LABEL)
  const adminPort = env.int(AGENT_ENV.adminPort, DEFAULT_ADMIN_PORT, { min: 1, max: 65535 })
  const inboundPort = env.int(AGENT_ENV.inboundPort, DEFAULT_INBOUND_PORT, { min: 1, max: 65535 })
  if (adminPort === inboundPort) env.problem(AGENT_ENV.inboundPort, `must differ from ${AGENT_ENV.adminPort}`)
  const endpoint = env.url(AGENT_ENV.endpoint, AGENT_ENDPOINT_PROTOCOLS) ?? `http://127.0.0.1:${inboundPort}`
  const apiKey = env.required(AGENT_ENV.apiKey)
  if (apiKey !== '' && apiKey.length < 16) env.problem(AGENT_ENV.apiKey, 'must be at least 16 characters')
  const walletKey = env.required(AGENT_ENV.walletKey)
  if (walletKey !== '' && walletKey.length < 16) env.problem(AGENT_ENV.walletKey, 'must be at least 16 characters')
  const databaseUrl = env.url(AGENT_ENV.databaseUrl, ['postgres', 'postgresql'])
  let database: DatabaseConfig
  if (databaseUrl) {
    const schema = env.string(AGENT_ENV.databaseSchema, `agent_${label.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`)
    if (!SCHEMA_NAME_PATTERN.test(schema)) env.problem(AGENT_ENV.databaseSchema, 'must be a lower-case SQL identifier')
    database = { kind: 'postgres', url: databaseUrl, schema }
  } else {
    const safeLabel = label.replace(/[^A-Za-z0-9_.-]/g, '_')
    database = {
      kind: 'pglite',
      dataDir: path.resolve(env.string(AGENT_ENV.dataDir, `./data/agent-${safeLabel}`)),
      sharedBuffersMb: env.int(AGENT_ENV.pgliteSharedBuffersMb, DEFAULT_PGLITE_SHARED_BUFFERS_MB, {
        min: 1,
        max: 4096,
      }),
    }
  }
  const eventUrl = env.url(AGENT_ENV.eventUrl, ['http', 'https'])
  const eventToken = env.string(AGENT_ENV.eventToken)
  if (eventUrl && !eventToken) env.problem(AGENT_ENV.eventToken, `is required when ${AGENT_ENV.eventUrl} is set`)
  const ledgerUrl = env.url(AGENT_ENV.ledgerUrl, ['http', 'https']) ?? originOf(eventUrl)
  const logLevel = env.oneOf(AGENT_ENV.logLevel, ['debug', 'info', 'warn', 'error'] as const, 'info')
  const recordMirrorMb = env.int(AGENT_ENV.recordMirrorMb, DEFAULT_RECORD_MIRROR_MB, { min: 0, max: 65536 })
  const isMemorySaving = env.bool(AGENT_ENV.memorySaving, DEFAULT_MEMORY_SAVING)
  const anonCredsTestRegistryDir = env.string(ANONCREDS_TEST_REGISTRY_DIR_ENV) || undefined
  // Unset: every interface, as a pod needs; the API's process runtime passes loopback (docs/agent.md).
  const bindHost = env.string(AGENT_ENV.bindHost)
  if (bindHost !== undefined && isIP(bindHost) === 0 && bindHost !== 'localhost') {
    env.problem(AGENT_ENV.bindHost, 'must be an IP address or localhost')
  }
  const exitOnStdinClose = env.bool(AGENT_ENV.exitOnStdinClose, false)
  const isOpenId4VcEnabled = env.bool(AGENT_ENV.openId4Vc, DEFAULT_OPENID4VC)
  const allowPrivateTargets = env.bool(AGENT_ENV.allowPrivateTargets, DEFAULT_ALLOW_PRIVATE_TARGETS)
  const outboundMaxAttempts = env.int(AGENT_ENV.outboundMaxAttempts, DEFAULT_OUTBOUND_MAX_ATTEMPTS, {
    min: 1,
    max: 100000,
  })
  const exchangeTimeoutSeconds = env.int(AGENT_ENV.exchangeTimeoutSeconds, DEFAULT_EXCHANGE_TIMEOUT_SECONDS, {
    min: 0,
    max: 31_536_000,
  })
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
    ledgerUrl: ledgerUrl?.replace(/\/+$/, ''),
    logLevel,
    recordMirrorMb,
    bindHost,
    exitOnStdinClose,
    isMemorySaving,
    allowPrivateTargets,
    anonCredsTestRegistryDir: anonCredsTestRegistryDir ? path.resolve(anonCredsTestRegistryDir) : undefined,
    isOpenId4VcEnabled,
    outboundMaxAttempts,
    exchangeTimeoutSeconds,
  }
}

/** The origin of a URL; undefined when unset or invalid (the invalid one is reported under its own name). */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}
