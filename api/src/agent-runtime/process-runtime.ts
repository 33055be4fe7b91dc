import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { InvalidStateError, type Logger, type LogLevel } from '@idplane/common'
import { AGENT_NODE_OPTIONS } from '@idplane/common/agent-node-options'
import type { PortPair } from '@idplane/common/ports'
import type { AgentsConfig, Config } from '../infra/config'
import {
  AgentRuntime,
  shortOrgId,
  type AgentLaunch,
  type AgentSecrets,
  type AgentRuntimeStatus,
  type ProvisionOptions,
} from './agent-runtime'
import { probeAgent, sleep } from './agent-probe'

/** @default 10 s for an agent to stop on SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000
/** @default 2 s per GET /agent attempt. */
const PROBE_TIMEOUT_MS = 2_000

interface RunningAgent {
  child: ChildProcess
  ports: PortPair
  exit: Promise<number | null>
  exitCode?: number | null
}

export interface ProcessRuntimeOptions {
  agents: AgentsConfig
  database: Config['database']
  logger: Logger
}

/**
 * The embedded runtime (DESIGN.md, "Agent runtimes"): each agent is a child process of the API, started with
 * `process.execPath <dist/agent/src/main.js>` on ports the API allocated, its PGlite data under
 * `<DATA_DIR>/agents/<orgId>` (or, when the API runs on PostgreSQL, the same database with schema
 * `agent_<short org id>`). Children stop with the API and start again with it (AgentsService.start).
 */
export class ProcessRuntime extends AgentRuntime {
  public readonly kind = 'process'
  private readonly running = new Map<string, RunningAgent>()
  private isClosed = false

  public constructor(private readonly options: ProcessRuntimeOptions) {
    super()
  }

  public async provision(launch: AgentLaunch, options: ProvisionOptions = {}): Promise<AgentRuntimeStatus> {
    const { pollAttempts, pollIntervalMs } = this.options.agents
    const ports = launch.ports
    if (!ports) throw new InvalidStateError('The process runtime needs the allocated ports')
    const entrypoint = this.entrypoint()
    if (!existsSync(entrypoint)) {
      return { phase: 'failed', ports, reason: `Agent program not found at ${entrypoint} (run npm run build)` }
    }
    const agent = await this.ensureRunning(launch, ports, entrypoint)
    await options.onStatus?.({ phase: 'pending', ports })
    const adminUrl = this.adminUrl(ports)
    let last = 'no answer'
    for (let attempt = 1; attempt <= pollAttempts; attempt++) {
      await Promise.race([sleep(pollIntervalMs, options.signal), agent.exit])
      if (options.signal?.aborted) return { phase: 'pending', ports }
      if (agent.exitCode !== undefined) {
        return {
          phase: 'failed',
          ports,
          reason: `Agent process exited with code ${agent.exitCode} before GET /agent answered 200`,
        }
      }
      const result = await probeAgent(adminUrl, PROBE_TIMEOUT_MS)
      if (result.ok) return { phase: 'ready', ports, controllerEndpoint: adminUrl }
      last = result.detail
      this.log(launch.orgId).debug('Agent not ready', { attempt, of: pollAttempts, detail: result.detail })
    }
    await this.stop(launch.orgId)
    return {
      phase: 'failed',
      ports,
      reason: `GET /agent did not answer 200 in ${pollAttempts} attempts (last: ${last})`,
    }
  }

  public async status(orgId: string): Promise<AgentRuntimeStatus> {
    const agent = this.running.get(orgId)
    if (!agent) return { phase: 'absent' }
    if (agent.exitCode !== undefined)
      return { phase: 'failed', ports: agent.ports, reason: `Agent process exited with code ${agent.exitCode}` }
    const adminUrl = this.adminUrl(agent.ports)
    const result = await probeAgent(adminUrl, PROBE_TIMEOUT_MS)
    return result.ok
      ? { phase: 'ready', ports: agent.ports, controllerEndpoint: adminUrl }
      : { phase: 'pending', ports: agent.ports }
  }

  public async stop(orgId: string): Promise<void> {
    const agent = this.running.get(orgId)
    if (!agent) return
    this.running.delete(orgId)
    if (agent.exitCode !== undefined) return
    agent.child.kill('SIGTERM')
    const timer = setTimeout(() => agent.child.kill('SIGKILL'), STOP_GRACE_MS)
    await agent.exit
    clearTimeout(timer)
    this.log(orgId).info('Stopped agent process', { pid: agent.child.pid })
  }

  public async close(): Promise<void> {
    this.isClosed = true
    await Promise.all([...this.running.keys()].map((orgId) => this.stop(orgId)))
  }

  private async ensureRunning(launch: AgentLaunch, ports: PortPair, entrypoint: string): Promise<RunningAgent> {
    const existing = this.running.get(launch.orgId)
    if (existing && existing.exitCode === undefined) return existing
    if (this.isClosed) throw new InvalidStateError('The process runtime is closed')
    const log = this.log(launch.orgId)
    const env = this.agentEnv(launch, ports, await launch.secrets())
    const child = spawn(process.execPath, [...AGENT_NODE_OPTIONS, entrypoint], {
      cwd: repositoryRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const agent: RunningAgent = {
      child,
      ports,
      exit: new Promise((resolve) => {
        child.once('exit', (code, signal) => {
          agent.exitCode = code ?? (signal ? null : -1)
          log.info('Agent process exited', { pid: child.pid, code, signal })
          resolve(agent.exitCode)
        })
        child.once('error', (error) => {
          agent.exitCode = -1
          log.error('Agent process failed to start', { error: error.message })
          resolve(-1)
        })
      }),
    }
    this.forwardOutput(child, log)
    this.running.set(launch.orgId, agent)
    log.info('Started agent process', { pid: child.pid, adminPort: ports.adminPort, inboundPort: ports.inboundPort })
    return agent
  }

  private agentEnv(launch: AgentLaunch, ports: PortPair, secrets: AgentSecrets): Record<string, string> {
    const { agents, database } = this.options
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: this.options.logger.isEnabled('debug') ? 'debug' : 'info',
      AGENT_LABEL: launch.label,
      AGENT_ADMIN_PORT: String(ports.adminPort),
      AGENT_INBOUND_PORT: String(ports.inboundPort),
      AGENT_ENDPOINT: agentEndpoint(agents.publicEndpointBase, agents.host, ports.inboundPort),
      AGENT_API_KEY: secrets.apiKey,
      AGENT_WALLET_KEY: secrets.walletKey,
      AGENT_EVENT_URL: `${agents.internalUrl}/v1/internal/agent-events`,
      AGENT_EVENT_TOKEN: secrets.eventToken,
    }
    if (database.kind === 'postgres') {
      env.AGENT_DATABASE_URL = database.url
      env.AGENT_DATABASE_SCHEMA = `agent_${shortOrgId(launch.orgId)}`
    } else {
      const dataDir = path.join(agents.dataDir, launch.orgId)
      mkdirSync(dataDir, { recursive: true, mode: 0o700 })
      env.AGENT_DATA_DIR = dataDir
    }
    return env
  }

  /** Each line of the child becomes one JSON line of ours, tagged with the organization. */
  private forwardOutput(child: ChildProcess, log: Logger): void {
    for (const [stream, fallback] of [
      [child.stdout, 'info'],
      [child.stderr, 'warn'],
    ] as const) {
      if (!stream) continue
      createInterface({ input: stream }).on('line', (line) => {
        const parsed = parseJsonLine(line)
        if (parsed) {
          const { level, msg, ...data } = parsed
          log.log(isLevel(level) ? level : fallback, typeof msg === 'string' ? msg : 'Agent output', { agentLog: data })
        } else if (line.trim() !== '') {
          log.log(fallback, 'Agent output', { line })
        }
      })
    }
  }

  private adminUrl(ports: PortPair): string {
    return `http://${this.options.agents.host}:${ports.adminPort}`
  }

  private entrypoint(): string {
    return path.resolve(
      repositoryRoot(),
      this.options.agents.entrypoint ?? path.join('dist', 'agent', 'src', 'main.js'),
    )
  }

  private log(orgId: string): Logger {
    return this.options.logger.child({ component: 'agent-runtime', orgId })
  }
}

/** AGENT_ENDPOINT: the public base with the inbound port (unless the base names a port), else the agent host. */
export function agentEndpoint(publicBase: string | undefined, host: string, inboundPort: number): string {
  if (!publicBase) return `http://${host}:${inboundPort}`
  const url = new URL(publicBase)
  // URL drops a default port (":443"), so look for an explicit one in the text itself.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:\d+/i.test(publicBase)) url.port = String(inboundPort)
  return url.toString().replace(/\/$/, '')
}

let root: string | undefined
/** The directory of idplane's package.json, from sources (api/src/...) and from the build (dist/api/src/...). */
export function repositoryRoot(): string {
  if (root) return root
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json')
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'idplane') {
      root = dir
      return dir
    }
  }
  root = process.cwd()
  return root
}

function parseJsonLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(line)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

function isLevel(value: unknown): value is LogLevel {
  return value === 'debug' || value === 'info' || value === 'warn' || value === 'error'
}
