import { isIP } from 'node:net'
import path from 'node:path'
import { EnvReader, LogLevel, parseLogLevel } from '@idplane/common'
import { ADMIN_PORT_COUNTER_START, INBOUND_PORT_COUNTER_START } from '@idplane/common/ports'
import { IMAGE_PULL_POLICIES, type ImagePullPolicy } from '@idplane/common/orgagent.types'
import { readConfigSections, type ConfigSection } from './config-section'
import { AGENT_ENDPOINT_PROTOCOLS } from '@idplane/common/agent-contract/endpoint'
import { AGENT_TUNING_ENV } from '@idplane/common/agent-contract/launch-env'
import { IDLE_CONNECTION_TIMEOUT_MS } from '@idplane/common/net/idle-connections'
import {
  DEFAULT_PASSWORD_HASH_CONCURRENCY,
  DEFAULT_PASSWORD_HASH_QUEUE_MAX,
  DEFAULT_PASSWORD_HASH_QUEUE_PER_CLIENT,
} from './auth/password-hasher'
import {
  DEFAULT_MAIL_OUTBOX_LEASE_SECONDS,
  DEFAULT_MAIL_OUTBOX_POLL_INTERVAL_MS,
  DEFAULT_MAIL_RETENTION_SECONDS,
} from './mail/mail-outbox'
import {
  DEFAULT_RETENTION_BATCH_PAUSE_MS,
  DEFAULT_RETENTION_BATCH_SIZE,
  DEFAULT_RETENTION_INTERVAL_SECONDS,
  DEFAULT_RETENTION_MAX_BATCHES_PER_PASS,
  MAX_RETENTION_SECONDS,
} from './retention/retention-pruner'

/** @default 5000, the spec's gateway port (Limits table). */
export const DEFAULT_PORT = 5000
/** @default 86400 seconds (24 h), the spec's example access-token lifetime. */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 86_400
/** @default 30 days: refresh tokens rotate on every use, so a long family life is safe. */
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400
/** @default 6 GET /agent attempts (spec: Limits, "Agent provisioning constants"). */
export const DEFAULT_AGENT_POLL_ATTEMPTS = 6
/** @default 10 000 ms between GET /agent attempts (same spec section). */
export const DEFAULT_AGENT_POLL_INTERVAL_MS = 10_000
/** @default 30 000 ms for one call to an agent's admin API (creating a DID, sending a message) before a 502. */
export const DEFAULT_AGENT_REQUEST_TIMEOUT_MS = 30_000
/** One spare: a launch takes it, and the next is loaded once that agent answers. */
export const DEFAULT_AGENT_SPARES = 1

/**
 * @default false: nothing the platform calls on a user's say-so (webhooks, an organization's notificationWebhook,
 * invitation URLs and DIDComm endpoints its agents reach) may be a private, loopback, link-local or metadata address
 * (NETWORK_ALLOW_PRIVATE_TARGETS, formerly WEBHOOK_ALLOW_PRIVATE_TARGETS; development, tests and closed networks turn
 * it on). Agents get it as AGENT_ALLOW_PRIVATE_TARGETS.
 */
export const DEFAULT_NETWORK_ALLOW_PRIVATE_TARGETS = false
/** The setting's name; WEBHOOK_ALLOW_PRIVATE_TARGETS is read as an alias (docs/configuration.md). */
export const NETWORK_ALLOW_PRIVATE_TARGETS_ENV = 'NETWORK_ALLOW_PRIVATE_TARGETS'
const WEBHOOK_ALLOW_PRIVATE_TARGETS_ALIAS = 'WEBHOOK_ALLOW_PRIVATE_TARGETS'

/** @default a day: the retry window issue 23 item 9 asks for. */
const DEFAULT_IDEMPOTENCY_KEY_TTL_SECONDS = 86_400
/** @default 5 minutes: longer than any request the API serves (agent calls time out well before). */
const DEFAULT_IDEMPOTENCY_PENDING_SECONDS = 300
/** @default 5 seconds: a retry sent while the first request still runs usually gets its answer, not a 409. */
const DEFAULT_IDEMPOTENCY_WAIT_MS = 5_000

/** Where and how organizations' agents run (docs/configuration.md, "Agent provisioning"). */
export interface AgentsConfig {
  readonly runtime: 'process' | 'kubernetes'
  readonly pollAttempts: number
  readonly pollIntervalMs: number
  /** Longest wait for one admin call to an agent (AgentClient); past it the caller gets a 502. */
  readonly requestTimeoutMs: number
  /** Host the API reaches process-runtime agents at (and their default DIDComm endpoint host). */
  readonly host: string
  /** Base URL of agents' inbound ports from outside; the inbound port is appended unless it names one. */
  readonly publicEndpointBase?: string
  /** Where agents post their events: `<internalUrl>/v1/internal/agent-events`. */
  readonly internalUrl: string
  /** Process runtime: the agent program run with this Node binary. @default <repo>/dist/agent/src/main.js */
  readonly entrypoint?: string
  /** Process runtime: counter start values; only tests change them (AGENT_PORT_COUNTER_START). */
  readonly portCounterStart: { readonly admin: number; readonly inbound: number }
  /** Process runtime: agents' PGlite data lives in `<dataDir>/<orgId>` when the API runs on PGlite. */
  readonly dataDir: string
  readonly namespace: string
  readonly image?: string
  readonly imagePullPolicy?: ImagePullPolicy
  /** Kubernetes runtime: a kubeconfig file; unset → in-cluster service account (or ~/.kube/config). */
  readonly kubeconfigPath?: string
  /** Process runtime: the address agents listen on (AGENT_BIND_HOST); pods always listen on every interface. */
  readonly bindHost: string
  /**
   * TEST-ONLY (AGENT_ANONCREDS_TEST_REGISTRY_DIR): passed to process-runtime agents, which then share this
   * directory as their AnonCreds registry instead of a ledger. Unset in every deployment.
   */
  readonly anonCredsTestRegistryDir?: string
  /** Agent tuning settings set in the API's environment, passed on to process-runtime agents (AGENT_TUNING_ENV). */
  readonly tuningEnv: Readonly<Record<string, string>>
  /**
   * Process runtime: spare agent processes kept loaded for the next launch (AGENT_SPARES; docs/decisions.md, "A spare
   * agent process ahead of need"). @default DEFAULT_AGENT_SPARES
   */
  readonly spares: number
}

export interface ClientAlias {
  alias: string
  name: string
  /** Base URL of the client front end: verification and invitation links point here. */
  url: string
  logoUrl?: string
}

export interface RateLimitRule {
  limit: number
  windowSeconds: number
}

export interface Config {
  readonly isEmbedded: boolean
  readonly dataDir: string
  readonly logLevel: LogLevel
  readonly http: {
    readonly port: number
    readonly host: string
    readonly protocol: 'http' | 'https'
    readonly publicUrl: string
    readonly bodyLimit: string
    readonly trustProxy: boolean
    /**
     * API_KEEP_ALIVE_TIMEOUT_SECONDS: how long an idle keep-alive connection stays open; longer than the ingress keeps
     * its own (common/net/idle-connections.ts). @default 75
     */
    readonly keepAliveTimeoutMs: number
    /** METRICS_PORT: /metrics served on this port only; unset → on the main port. */
    readonly metricsPort?: number
    /** `Idempotency-Key` on creating POSTs (infra/http/idempotency/idempotency.ts). */
    readonly idempotency: {
      /** IDEMPOTENCY_KEY_TTL_SECONDS: how long a key and its answer are kept. @default 86400 (a day) */
      readonly ttlSeconds: number
      /** IDEMPOTENCY_PENDING_TIMEOUT_SECONDS: after this, a key whose request never answered may act again. */
      readonly pendingTimeoutSeconds: number
      /** IDEMPOTENCY_WAIT_MS: how long a retry waits for a concurrent request with its key before a 409. */
      readonly waitMs: number
    }
  }
  readonly database:
    | { readonly kind: 'postgres'; readonly url: string; readonly poolMax: number }
    | { readonly kind: 'pglite'; readonly dir: string }
  readonly queue: (
    | { readonly kind: 'amqp'; readonly url: string }
    | { readonly kind: 'in-process'; readonly dir: string }
  ) & {
    /** Prepended to every queue name: separate platforms (or test runs) sharing one broker. */
    readonly namePrefix: string
  }
  readonly mail:
    | { readonly kind: 'smtp'; readonly url: string; readonly from: string }
    | { readonly kind: 'file'; readonly dir: string; readonly from: string }
  readonly jwt: {
    readonly privateKey?: string
    readonly publicKey?: string
    /** Where embedded mode keeps a generated key pair. */
    readonly keyDir: string
    readonly issuer: string
    readonly audience: string
    readonly accessTokenTtlSeconds: number
    readonly refreshTokenTtlSeconds: number
  }
  /** PASSWORD_HASH_CONCURRENCY / PASSWORD_HASH_QUEUE_MAX / PASSWORD_HASH_QUEUE_PER_CLIENT (infra/auth/password-hasher.ts). */
  readonly passwordHashing: {
    readonly concurrency: number
    readonly maxQueued: number
    readonly maxQueuedPerClient: number
  }
  /** The transactional mail outbox (infra/mail/mail-outbox.ts). */
  readonly mailOutbox: {
    readonly pollIntervalMs: number
    readonly leaseSeconds: number
    /** MAIL_RETENTION_SECONDS: sent and dead mails are deleted this long after they were written. */
    readonly retentionSeconds: number
  }
  /** The retention pass every process runs (infra/retention/retention-pruner.ts); each table's age is its module's. */
  readonly retention: {
    /** RETENTION_INTERVAL_SECONDS, as milliseconds. */
    readonly intervalMs: number
    /** RETENTION_BATCH_SIZE */
    readonly batchSize: number
    /** RETENTION_BATCH_PAUSE_MS */
    readonly pauseMs: number
    readonly maxBatchesPerPass: number
  }
  readonly clientAliases: readonly ClientAlias[]
  /** Key (32 bytes, base64) that encrypts secrets at rest; derived per install in embedded mode. */
  readonly secretsKey?: string
  /** Where the generated key is kept when SECRETS_ENCRYPTION_KEY is unset (see loadConfig). */
  readonly secretsKeyFile: string
  readonly agents: AgentsConfig
  /** Modules' own settings by section name (ApiModule.config); read them with sectionOf(config, section). */
  readonly sections?: Readonly<Record<string, unknown>>
  /** Outgoing calls to targets users choose (docs/decisions.md, "Outgoing targets"). */
  readonly network: { readonly allowPrivateTargets: boolean }
}

const DEFAULT_CLIENT_ALIAS = (publicUrl: string): ClientAlias => ({ alias: 'IDPLANE', name: 'idplane', url: publicUrl })

/**
 * Reads and validates the API's configuration once at start-up, with the modules' sections. Every bad
 * variable is reported in one ConfigError, by name and reason only. Embedded-mode choices (PGlite,
 * in-process queue, file mail) are made here and nowhere else.
 * @throws ConfigError
 */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  sections: readonly ConfigSection[] = [],
): Config {
  const env = new EnvReader(source)
  const dataDir = path.resolve(env.string('DATA_DIR', './data'))
  const port = env.int('API_GATEWAY_PORT', DEFAULT_PORT, { min: 0, max: 65535 })
  const host = env.string('API_GATEWAY_HOST', '0.0.0.0')
  const protocol = env.oneOf('API_GATEWAY_PROTOCOL', ['http', 'https'] as const, 'http')
  const publicUrl = (
    env.url('API_PUBLIC_URL', ['http', 'https']) ?? `${protocol}://${host === '0.0.0.0' ? 'localhost' : host}:${port}`
  ).replace(/\/$/, '')

  const databaseUrl = env.url('DATABASE_URL', ['postgres', 'postgresql'])
  const amqpUrl = env.url('AMQP_URL', ['amqp', 'amqps'])
  const smtpUrl = env.url('SMTP_URL', ['smtp', 'smtps'])
  const mailFrom = env.string('MAIL_FROM', 'idplane <no-reply@idplane.local>')

  const clientAliases = parseClientAliases(env, source.CLIENT_ALIASES, publicUrl)
  const secretsKey = env.string('SECRETS_ENCRYPTION_KEY')
  if (secretsKey !== undefined && Buffer.from(secretsKey, 'base64').length !== 32) {
    env.problem('SECRETS_ENCRYPTION_KEY', 'must be 32 bytes encoded as base64')
  }
  const agents = loadAgentsConfig(env, dataDir, port)
  // A key file on one pod's disk would leave other replicas (or a rescheduled pod) unable to read agent keys.
  if (secretsKey === undefined && databaseUrl !== undefined && agents.runtime === 'kubernetes') {
    env.problem('SECRETS_ENCRYPTION_KEY', 'is required with DATABASE_URL and AGENT_RUNTIME=kubernetes')
  }
  if (source.METRICS_PORT !== undefined && source.METRICS_PORT === String(port)) {
    env.problem('METRICS_PORT', 'must differ from API_GATEWAY_PORT (unset it to serve /metrics on the main port)')
  }
  const privateKey = decodePem(env.string('JWT_PRIVATE_KEY'))
  const publicKey = decodePem(env.string('JWT_PUBLIC_KEY'))
  if ((privateKey === undefined) !== (publicKey === undefined)) {
    env.problem('JWT_PRIVATE_KEY', 'JWT_PRIVATE_KEY and JWT_PUBLIC_KEY must be set together')
  }

  const config: Config = {
    isEmbedded: databaseUrl === undefined,
    dataDir,
    logLevel: parseLogLevel(env.string('LOG_LEVEL')),
    http: {
      port,
      host,
      protocol,
      publicUrl,
      bodyLimit: env.string('API_BODY_LIMIT', '1mb'),
      trustProxy: env.bool('API_TRUST_PROXY', false),
      keepAliveTimeoutMs:
        env.int('API_KEEP_ALIVE_TIMEOUT_SECONDS', IDLE_CONNECTION_TIMEOUT_MS / 1000, { min: 1, max: 3600 }) * 1000,
      metricsPort:
        env.string('METRICS_PORT') === undefined ? undefined : env.int('METRICS_PORT', 0, { min: 1, max: 65535 }),
      idempotency: {
        ttlSeconds: env.int('IDEMPOTENCY_KEY_TTL_SECONDS', DEFAULT_IDEMPOTENCY_KEY_TTL_SECONDS, {
          min: 60,
          max: 7 * 86_400,
        }),
        pendingTimeoutSeconds: env.int('IDEMPOTENCY_PENDING_TIMEOUT_SECONDS', DEFAULT_IDEMPOTENCY_PENDING_SECONDS, {
          min: 1,
          max: 86_400,
        }),
        waitMs: env.int('IDEMPOTENCY_WAIT_MS', DEFAULT_IDEMPOTENCY_WAIT_MS, { min: 0, max: 60_000 }),
      },
    },
    database: databaseUrl
      ? { kind: 'postgres', url: databaseUrl, poolMax: env.int('DATABASE_POOL_MAX', 10, { min: 1, max: 200 }) }
      : { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
    queue: {
      ...(amqpUrl ? { kind: 'amqp' as const, url: amqpUrl } : { kind: 'in-process' as const, dir: dataDir }),
      namePrefix: env.string('QUEUE_NAME_PREFIX', ''),
    },
    mail: smtpUrl ? { kind: 'smtp', url: smtpUrl, from: mailFrom } : { kind: 'file', dir: dataDir, from: mailFrom },
    jwt: {
      privateKey,
      publicKey,
      keyDir: path.join(dataDir, 'jwt'),
      issuer: env.string('JWT_ISSUER', 'idplane'),
      audience: env.string('JWT_AUDIENCE', 'idplane-api'),
      accessTokenTtlSeconds: env.int('JWT_EXPIRES_IN_SECONDS', DEFAULT_ACCESS_TOKEN_TTL_SECONDS, { min: 60 }),
      refreshTokenTtlSeconds: env.int('JWT_REFRESH_EXPIRES_IN_SECONDS', DEFAULT_REFRESH_TOKEN_TTL_SECONDS, { min: 60 }),
    },
    passwordHashing: {
      concurrency: env.int('PASSWORD_HASH_CONCURRENCY', DEFAULT_PASSWORD_HASH_CONCURRENCY, { min: 1, max: 64 }),
      maxQueued: env.int('PASSWORD_HASH_QUEUE_MAX', DEFAULT_PASSWORD_HASH_QUEUE_MAX, { min: 0, max: 10_000 }),
      maxQueuedPerClient: env.int('PASSWORD_HASH_QUEUE_PER_CLIENT', DEFAULT_PASSWORD_HASH_QUEUE_PER_CLIENT, {
        min: 0,
        max: 10_000,
      }),
    },
    mailOutbox: {
      pollIntervalMs: env.int('MAIL_OUTBOX_POLL_INTERVAL_MS', DEFAULT_MAIL_OUTBOX_POLL_INTERVAL_MS, {
        min: 10,
        max: 60_000,
      }),
      leaseSeconds: env.int('MAIL_OUTBOX_LEASE_SECONDS', DEFAULT_MAIL_OUTBOX_LEASE_SECONDS, { min: 1, max: 3_600 }),
      retentionSeconds: env.int('MAIL_RETENTION_SECONDS', DEFAULT_MAIL_RETENTION_SECONDS, {
        min: 60,
        max: MAX_RETENTION_SECONDS,
      }),
    },
    retention: {
      intervalMs:
        env.int('RETENTION_INTERVAL_SECONDS', DEFAULT_RETENTION_INTERVAL_SECONDS, { min: 1, max: 86_400 }) * 1000,
      batchSize: env.int('RETENTION_BATCH_SIZE', DEFAULT_RETENTION_BATCH_SIZE, { min: 1, max: 10_000 }),
      pauseMs: env.int('RETENTION_BATCH_PAUSE_MS', DEFAULT_RETENTION_BATCH_PAUSE_MS, { min: 0, max: 10_000 }),
      maxBatchesPerPass: DEFAULT_RETENTION_MAX_BATCHES_PER_PASS,
    },
    clientAliases,
    secretsKey,
    secretsKeyFile: path.join(dataDir, 'secrets', 'encryption.key'),
    agents,
    network: { allowPrivateTargets: readAllowPrivateTargets(env) },
  }
  const withSections: Config = { ...config, sections: readConfigSections(env, config, sections) }
  env.assertValid('api')
  return withSections
}

/** NETWORK_ALLOW_PRIVATE_TARGETS, or its older name WEBHOOK_ALLOW_PRIVATE_TARGETS; both set must agree. */
function readAllowPrivateTargets(env: EnvReader): boolean {
  const alias = env.bool(WEBHOOK_ALLOW_PRIVATE_TARGETS_ALIAS, DEFAULT_NETWORK_ALLOW_PRIVATE_TARGETS)
  const value = env.bool(NETWORK_ALLOW_PRIVATE_TARGETS_ENV, alias)
  if (
    env.string(NETWORK_ALLOW_PRIVATE_TARGETS_ENV) !== undefined &&
    env.string(WEBHOOK_ALLOW_PRIVATE_TARGETS_ALIAS) !== undefined &&
    value !== alias
  ) {
    env.problem(
      WEBHOOK_ALLOW_PRIVATE_TARGETS_ALIAS,
      `must agree with ${NETWORK_ALLOW_PRIVATE_TARGETS_ENV} (it is its alias)`,
    )
  }
  return value
}

/**
 * TEST-ONLY: the agents' shared AnonCreds test registry directory. The API reads it under the agent's own name and
 * passes it on to the agents it runs as processes (not part of the launch contract, AGENT_ENV: no launcher sets it).
 */
export const TEST_ANONCREDS_REGISTRY_DIR_ENV = 'AGENT_ANONCREDS_TEST_REGISTRY_DIR'

/** AGENT_* settings of the API; the counter start override exists for tests only (docs/configuration.md). */
function loadAgentsConfig(env: EnvReader, dataDir: string, apiPort: number): AgentsConfig {
  const counterStart = env.string('AGENT_PORT_COUNTER_START')
  let portCounterStart = { admin: ADMIN_PORT_COUNTER_START, inbound: INBOUND_PORT_COUNTER_START }
  if (counterStart !== undefined) {
    const match = /^(\d{1,5}),(\d{1,5})$/.exec(counterStart)
    const admin = Number(match?.[1])
    const inbound = Number(match?.[2])
    if (!match || admin >= inbound || inbound >= 65535) {
      env.problem('AGENT_PORT_COUNTER_START', 'must be "<admin>,<inbound>" with admin < inbound < 65535')
    } else {
      portCounterStart = { admin, inbound }
    }
  }
  const host = env.string('AGENT_HOST', '127.0.0.1')
  const registryDir = env.string(TEST_ANONCREDS_REGISTRY_DIR_ENV)
  const pullPolicy = env.string('AGENT_IMAGE_PULL_POLICY')
  if (pullPolicy !== undefined && !(IMAGE_PULL_POLICIES as readonly string[]).includes(pullPolicy)) {
    env.problem('AGENT_IMAGE_PULL_POLICY', `must be one of ${IMAGE_PULL_POLICIES.join(', ')}`)
  }
  return {
    runtime: env.oneOf('AGENT_RUNTIME', ['process', 'kubernetes'] as const, 'process'),
    pollAttempts: env.int('AGENT_POLL_ATTEMPTS', DEFAULT_AGENT_POLL_ATTEMPTS, { min: 1, max: 1000 }),
    pollIntervalMs: env.int('AGENT_POLL_INTERVAL_MS', DEFAULT_AGENT_POLL_INTERVAL_MS, { min: 10, max: 600_000 }),
    requestTimeoutMs: env.int('AGENT_REQUEST_TIMEOUT_MS', DEFAULT_AGENT_REQUEST_TIMEOUT_MS, { min: 100, max: 600_000 }),
    spares: env.int('AGENT_SPARES', DEFAULT_AGENT_SPARES, { min: 0, max: 8 }),
    host,
    publicEndpointBase: env.url('AGENT_PUBLIC_ENDPOINT_BASE', AGENT_ENDPOINT_PROTOCOLS)?.replace(/\/$/, ''),
    internalUrl: (env.url('API_INTERNAL_URL', ['http', 'https']) ?? `http://127.0.0.1:${apiPort}`).replace(/\/$/, ''),
    entrypoint: env.string('AGENT_ENTRYPOINT'),
    portCounterStart,
    dataDir: path.join(dataDir, 'agents'),
    namespace: env.string('AGENT_NAMESPACE', 'default'),
    image: env.string('AGENT_IMAGE'),
    imagePullPolicy: IMAGE_PULL_POLICIES.find((policy) => policy === pullPolicy),
    kubeconfigPath: env.string('KUBECONFIG'),
    bindHost: loadAgentBindHost(env, host),
    // Absolute: the agents run in another working directory.
    anonCredsTestRegistryDir: registryDir ? path.resolve(registryDir) : undefined,
    tuningEnv: Object.fromEntries(
      AGENT_TUNING_ENV.flatMap((name) => {
        const value = env.string(name)
        return value === undefined ? [] : [[name, value]]
      }),
    ),
  }
}

/**
 * AGENT_BIND_HOST: where process-runtime agents listen. Default: AGENT_HOST when it is an address (the API
 * polls agents there), else loopback; never every interface unless asked for with 0.0.0.0 or ::.
 */
function loadAgentBindHost(env: EnvReader, agentHost: string): string {
  const fallback = isIP(agentHost) !== 0 || agentHost === 'localhost' ? agentHost : '127.0.0.1'
  const bindHost = env.string('AGENT_BIND_HOST', fallback)
  if (isIP(bindHost) === 0 && bindHost !== 'localhost')
    env.problem('AGENT_BIND_HOST', 'must be an IP address or localhost')
  return bindHost
}

/** PEM keys may be given raw, with literal \n, or base64-encoded (easier in Kubernetes Secrets and .env files). */
function decodePem(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const unescaped = value.replace(/\\n/g, '\n')
  if (unescaped.includes('-----BEGIN')) return unescaped
  const decoded = Buffer.from(value, 'base64').toString('utf8')
  return decoded.includes('-----BEGIN') ? decoded : value
}

/** CLIENT_ALIASES is a JSON array of { alias, name, url, logoUrl? }; aliases are matched case-insensitively. */
function parseClientAliases(env: EnvReader, raw: string | undefined, publicUrl: string): ClientAlias[] {
  if (raw === undefined || raw.trim() === '') return [DEFAULT_CLIENT_ALIAS(publicUrl)]
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    env.problem('CLIENT_ALIASES', 'must be a JSON array of { "alias", "name", "url" } objects')
    return [DEFAULT_CLIENT_ALIAS(publicUrl)]
  }
  const aliases: ClientAlias[] = []
  if (!Array.isArray(parsed) || parsed.length === 0) {
    env.problem('CLIENT_ALIASES', 'must be a non-empty JSON array')
    return [DEFAULT_CLIENT_ALIAS(publicUrl)]
  }
  parsed.forEach((item: unknown, index) => {
    const entry = item as Record<string, unknown>
    const isValid =
      entry !== null &&
      typeof entry === 'object' &&
      typeof entry.alias === 'string' &&
      /^[A-Za-z0-9_-]{1,64}$/.test(entry.alias) &&
      typeof entry.url === 'string' &&
      /^https?:\/\//.test(entry.url)
    if (!isValid) {
      env.problem('CLIENT_ALIASES', `entry ${index} needs an "alias" (letters, digits, _ or -) and an http(s) "url"`)
      return
    }
    aliases.push({
      alias: String(entry.alias).toUpperCase(),
      name: typeof entry.name === 'string' ? entry.name : String(entry.alias),
      url: String(entry.url).replace(/\/$/, ''),
      logoUrl: typeof entry.logoUrl === 'string' ? entry.logoUrl : undefined,
    })
  })
  return aliases
}
