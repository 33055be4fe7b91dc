/**
 * The environment an agent is launched with (agent/src/config.ts reads it): its names, and one builder used by
 * the API's process runtime (the child's env), the API's Kubernetes runtime (the Secret's keys) and the
 * operator's pod builder (the container's env).
 */
export const AGENT_ENV = {
  label: 'AGENT_LABEL',
  adminPort: 'AGENT_ADMIN_PORT',
  inboundPort: 'AGENT_INBOUND_PORT',
  endpoint: 'AGENT_ENDPOINT',
  apiKey: 'AGENT_API_KEY',
  walletKey: 'AGENT_WALLET_KEY',
  databaseUrl: 'AGENT_DATABASE_URL',
  databaseSchema: 'AGENT_DATABASE_SCHEMA',
  dataDir: 'AGENT_DATA_DIR',
  eventUrl: 'AGENT_EVENT_URL',
  eventToken: 'AGENT_EVENT_TOKEN',
  ledgerUrl: 'AGENT_LEDGER_URL',
  recordMirrorMb: 'AGENT_RECORD_MIRROR_MB',
  bindHost: 'AGENT_BIND_HOST',
  exitOnStdinClose: 'AGENT_EXIT_ON_STDIN_CLOSE',
  openId4Vc: 'AGENT_OPENID4VC',
  allowPrivateTargets: 'AGENT_ALLOW_PRIVATE_TARGETS',
  /** Agent-side tuning, not set by launchers (docs/agent.md). */
  pgliteSharedBuffersMb: 'AGENT_PGLITE_SHARED_BUFFERS_MB',
  memorySaving: 'AGENT_MEMORY_SAVING',
  outboundMaxAttempts: 'AGENT_OUTBOUND_MAX_ATTEMPTS',
  exchangeTimeoutSeconds: 'AGENT_EXCHANGE_TIMEOUT_SECONDS',
  logLevel: 'LOG_LEVEL',
} as const

export type AgentEnvName = (typeof AGENT_ENV)[keyof typeof AGENT_ENV]

/**
 * The agent-side tuning settings (docs/agent.md) that a process-runtime API passes on, unchanged, to the agents it
 * starts when they are set in its own environment (the agent checks them). Kubernetes agents take them from the
 * OrgAgent's pod template instead.
 */
export const AGENT_TUNING_ENV: readonly AgentEnvName[] = [
  AGENT_ENV.pgliteSharedBuffersMb,
  AGENT_ENV.memorySaving,
  AGENT_ENV.outboundMaxAttempts,
  AGENT_ENV.exchangeTimeoutSeconds,
]

/** The secrets among them: the Kubernetes runtime puts them in a Secret, never in the OrgAgent's spec. */
export interface AgentSecretSettings {
  apiKey: string
  walletKey: string
  /** Required with `eventUrl`. */
  eventToken?: string
  /** PostgreSQL storage; the URL may hold a password. */
  databaseUrl?: string
}

/** The rest: plain values a pod spec or a child's env may show. */
export interface AgentPlainSettings {
  label: string
  adminPort: number
  inboundPort: number
  /** The DIDComm endpoint the agent advertises (see endpoint.ts). */
  endpoint: string
  /** Where the agent posts events (AGENT_EVENTS_PATH on the API). */
  eventUrl?: string
  /** Base URL of the platform ledger (the API's `/v1/ledger` routes are under it); unset: the event URL's origin. */
  ledgerUrl?: string
  /** PostgreSQL schema of the agent's tables (with databaseUrl). */
  databaseSchema?: string
  /** PGlite data directory (without databaseUrl). */
  dataDir?: string
  logLevel?: 'debug' | 'info' | 'warn' | 'error'
  recordMirrorMb?: number
  /** Address both ports listen on; unset: every interface (pods). The process runtime passes loopback. */
  bindHost?: string
  /** Exit when stdin reaches its end: a process-runtime agent ends with the API that spawned it. */
  exitOnStdinClose?: boolean
  /** OpenID4VC issuer, verifier and holder with x509, public endpoints on the inbound port (docs/agent.md). */
  openId4Vc?: boolean
  /**
   * The platform's NETWORK_ALLOW_PRIVATE_TARGETS: invitation URLs and DIDComm endpoints may be private or loopback
   * addresses. Unset: refused (production).
   */
  allowPrivateTargets?: boolean
}

export type AgentLaunchSettings = AgentPlainSettings & AgentSecretSettings

/** The secret variables, by name; absent settings are left out. */
export function agentSecretEnv(settings: AgentSecretSettings): Record<string, string> {
  return definedOnly({
    [AGENT_ENV.apiKey]: settings.apiKey,
    [AGENT_ENV.walletKey]: settings.walletKey,
    [AGENT_ENV.eventToken]: settings.eventToken,
    [AGENT_ENV.databaseUrl]: settings.databaseUrl,
  })
}

/** The plain variables, by name; absent settings are left out. */
export function agentPlainEnv(settings: AgentPlainSettings): Record<string, string> {
  return definedOnly({
    [AGENT_ENV.label]: settings.label,
    [AGENT_ENV.adminPort]: String(settings.adminPort),
    [AGENT_ENV.inboundPort]: String(settings.inboundPort),
    [AGENT_ENV.endpoint]: settings.endpoint,
    [AGENT_ENV.eventUrl]: settings.eventUrl,
    [AGENT_ENV.ledgerUrl]: settings.ledgerUrl,
    [AGENT_ENV.databaseSchema]: settings.databaseSchema,
    [AGENT_ENV.dataDir]: settings.dataDir,
    [AGENT_ENV.logLevel]: settings.logLevel,
    [AGENT_ENV.recordMirrorMb]: settings.recordMirrorMb === undefined ? undefined : String(settings.recordMirrorMb),
    [AGENT_ENV.bindHost]: settings.bindHost,
    [AGENT_ENV.exitOnStdinClose]: settings.exitOnStdinClose ? 'true' : undefined,
    [AGENT_ENV.openId4Vc]: settings.openId4Vc ? 'true' : undefined,
    [AGENT_ENV.allowPrivateTargets]: settings.allowPrivateTargets ? 'true' : undefined,
  })
}

/** Every variable of a launched agent. */
export function buildAgentEnv(settings: AgentLaunchSettings): Record<string, string> {
  return { ...agentPlainEnv(settings), ...agentSecretEnv(settings) }
}

function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(values)) if (value !== undefined) out[name] = value
  return out
}
