import { EnvReader, parseLogLevel, type LogLevel } from '@idplane/common'

/** @default 6 — spec/platform-api.md, "Agent provisioning constants" 3. */
export const DEFAULT_AGENT_POLL_ATTEMPTS = 6
/** @default 10000 — spec/platform-api.md, "Agent provisioning constants" 3. */
export const DEFAULT_AGENT_POLL_INTERVAL_MS = 10_000
/** @default 2000 — a single GET /agent gives up after this long. */
export const DEFAULT_AGENT_POLL_TIMEOUT_MS = 2_000
/** Where the operator reaches an agent's admin port: through its Service, inside the cluster. */
export const DEFAULT_AGENT_URL_TEMPLATE = 'http://{service}.{namespace}.svc:{adminPort}'
/** @default 8080 */
export const DEFAULT_METRICS_PORT = 8080
/** @default 'idplane-operator' */
export const DEFAULT_LEASE_NAME = 'idplane-operator'
/** client-go's defaults: 15 s lease, renew within 10 s, retry every 2 s. */
export const DEFAULT_LEASE_DURATION_SECONDS = 15
export const DEFAULT_LEASE_RENEW_DEADLINE_MS = 10_000
export const DEFAULT_LEASE_RETRY_PERIOD_MS = 2_000
/** @default 'idplane-agent-ports' */
export const DEFAULT_PORTS_CONFIGMAP = 'idplane-agent-ports'
/** @default 4 — reconciles running at once (never two for the same OrgAgent). */
export const DEFAULT_WORKERS = 4
/** @default 300 — every OrgAgent is reconciled at least this often. */
export const DEFAULT_RESYNC_SECONDS = 300

export interface OperatorConfig {
  /** Namespace whose OrgAgents are reconciled; undefined means every namespace. */
  readonly watchNamespace?: string
  /** Namespace the operator runs in: holds the port ConfigMap and, by default, the Lease. */
  readonly operatorNamespace: string
  readonly identity: string
  readonly lease: {
    readonly name: string
    readonly namespace: string
    readonly durationSeconds: number
    readonly renewDeadlineMs: number
    readonly retryPeriodMs: number
  }
  readonly agentPoll: {
    readonly attempts: number
    readonly intervalMs: number
    readonly timeoutMs: number
    /** `{service}`, `{namespace}`, `{name}`, `{adminPort}` are replaced; the result is status.controllerEndpoint. */
    readonly urlTemplate: string
  }
  readonly portsConfigMap: string
  readonly workers: number
  readonly resyncSeconds: number
  readonly metricsPort: number
  readonly metricsHost: string
  readonly kubeconfig?: string
  readonly logLevel: LogLevel
}

/**
 * Reads the operator's configuration once at start-up.
 * @throws ConfigError listing every bad variable by name.
 */
export function loadConfig(source: Record<string, string | undefined>): OperatorConfig {
  const env = new EnvReader(source)
  const operatorNamespace = env.string('OPERATOR_NAMESPACE') ?? env.string('POD_NAMESPACE', 'default')
  const identity = env.string('POD_NAME') ?? `idplane-operator-${process.pid}`
  const urlTemplate = env.string('OPERATOR_AGENT_URL_TEMPLATE', DEFAULT_AGENT_URL_TEMPLATE)
  if (!urlTemplate.includes('{adminPort}')) env.problem('OPERATOR_AGENT_URL_TEMPLATE', 'must contain {adminPort}')
  const durationSeconds = env.int('OPERATOR_LEASE_DURATION_SECONDS', DEFAULT_LEASE_DURATION_SECONDS, { min: 1 })
  const renewDeadlineMs = env.int('OPERATOR_LEASE_RENEW_DEADLINE_MS', DEFAULT_LEASE_RENEW_DEADLINE_MS, { min: 1 })
  const retryPeriodMs = env.int('OPERATOR_LEASE_RETRY_PERIOD_MS', DEFAULT_LEASE_RETRY_PERIOD_MS, { min: 1 })
  if (renewDeadlineMs >= durationSeconds * 1000) {
    env.problem('OPERATOR_LEASE_RENEW_DEADLINE_MS', 'must be shorter than OPERATOR_LEASE_DURATION_SECONDS')
  }
  const config: OperatorConfig = {
    watchNamespace: env.string('WATCH_NAMESPACE'),
    operatorNamespace,
    identity,
    lease: {
      name: env.string('OPERATOR_LEASE_NAME', DEFAULT_LEASE_NAME),
      namespace: env.string('OPERATOR_LEASE_NAMESPACE', operatorNamespace),
      durationSeconds,
      renewDeadlineMs,
      retryPeriodMs,
    },
    agentPoll: {
      attempts: env.int('OPERATOR_AGENT_POLL_ATTEMPTS', DEFAULT_AGENT_POLL_ATTEMPTS, { min: 1, max: 1000 }),
      intervalMs: env.int('OPERATOR_AGENT_POLL_INTERVAL_MS', DEFAULT_AGENT_POLL_INTERVAL_MS, { min: 1 }),
      timeoutMs: env.int('OPERATOR_AGENT_POLL_TIMEOUT_MS', DEFAULT_AGENT_POLL_TIMEOUT_MS, { min: 1 }),
      urlTemplate,
    },
    portsConfigMap: env.string('OPERATOR_PORTS_CONFIGMAP', DEFAULT_PORTS_CONFIGMAP),
    workers: env.int('OPERATOR_WORKERS', DEFAULT_WORKERS, { min: 1, max: 64 }),
    resyncSeconds: env.int('OPERATOR_RESYNC_SECONDS', DEFAULT_RESYNC_SECONDS, { min: 1 }),
    metricsPort: env.int('OPERATOR_METRICS_PORT', DEFAULT_METRICS_PORT, { min: 0, max: 65535 }),
    metricsHost: env.string('OPERATOR_METRICS_HOST', '0.0.0.0'),
    kubeconfig: env.string('KUBECONFIG'),
    logLevel: parseLogLevel(env.string('LOG_LEVEL')),
  }
  env.assertValid('operator')
  return config
}
