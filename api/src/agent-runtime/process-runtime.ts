import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { InvalidStateError, type Logger, type LogLevel } from '@idplane/common'
import { AGENT_COMMAND_LINE_OPTIONS, AGENT_MALLOC_ENV } from '@idplane/common/agent-node-options'
import type { PortPair } from '@idplane/common/ports'
import { probeAgent } from '@idplane/common/agent-contract/probe'
import { buildAgentEnv } from '@idplane/common/agent-contract/launch-env'
import { endpointFromBase } from '@idplane/common/agent-contract/endpoint'
import { AGENT_SPARE_DIR_ENV, AGENT_SPARE_ENV, spareLaunchLine } from '@idplane/common/agent-contract/spare'
import { PGDATA_DIR_NAME } from '@idplane/common/pglite-template'
import { TEST_ANONCREDS_REGISTRY_DIR_ENV, type AgentsConfig, type Config } from '../infra/config'
import {
  AgentRuntime,
  agentEventsPath,
  agentSchemaName,
  type AgentExit,
  type AgentLaunch,
  type AgentLifecycleListener,
  type AgentFeatures,
  type AgentSecrets,
  type AgentRuntimeStatus,
  type ProvisionOptions,
} from './agent-runtime'
import { sleep } from './sleep'
import {
  claimSupervision,
  isRecordedProcessAlive,
  otherLiveSupervisor,
  processRecordPath,
  processStartTime,
  readProcessRecord,
  releaseSupervision,
  removeProcessRecord,
  removeSupervision,
  supervisorRecordPath,
  writeProcessRecord,
  type ProcessRecord,
} from './process-record'

/** @default 10 s for an agent to stop on SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000
/** @default 2 s per GET /agent attempt. */
const PROBE_TIMEOUT_MS = 2_000
/** @default 1 s before the first restart of a crashed agent; each further crash doubles it. */
export const RESTART_BACKOFF_INITIAL_MS = 1_000
/** @default 60 s: the longest wait between restarts (a kubelet caps at 5 minutes; agents start in seconds). */
export const RESTART_BACKOFF_MAX_MS = 60_000
/** @default 60 s up and answering before the backoff starts again at its initial delay. */
export const RESTART_BACKOFF_RESET_MS = 60_000
/** @default 1 s between checks that an adopted agent (not our child) still runs. */
const ADOPTED_CHECK_MS = 1_000
/** Below the agents' data directory: the spares' folders (not an organization id: those are UUIDs). */
const SPARES_DIR_NAME = '.spares'
/** @default 1 s between checks that the API supervising a watched agent still runs. */
const SUPERVISOR_CHECK_MS = 1_000

/** One run of an agent: our child, or an agent that outlived an earlier API and was adopted by its pid. */
interface Incarnation {
  pid: number | undefined
  child?: ChildProcess
  exit: Promise<AgentExit>
  exited?: AgentExit
  stopAdoptedCheck?: () => void
  /** It was a spare when launched. */
  wasSpare?: boolean
  /** Resolved by the agent's readiness announcement (once per incarnation: later ones change nothing). */
  announced: Promise<void>
  announce: () => void
}

/** The announcement part of an incarnation: a promise and what resolves it. */
function announcement(): Pick<Incarnation, 'announced' | 'announce'> {
  let announce: () => void = () => undefined
  const announced = new Promise<void>((resolve) => (announce = resolve))
  return { announced, announce }
}

/**
 * A spare agent process (common/agent-contract/spare.ts): its modules loaded, waiting for the launch line that makes
 * it an organization's agent.
 */
interface Spare {
  child: ChildProcess
  /** Where its output goes: the runtime's log while it is spare, the organization's once launched. */
  output: { log: Logger }
  /** Ends the pool's watch of its exit: from its launch on, its incarnation watches it. */
  release: () => void
}

/** Everything the runtime does for one organization's agent, from provision to stop. */
interface Supervision {
  orgId: string
  launch: AgentLaunch
  ports: PortPair
  current?: Incarnation
  /** Set by stop(): exits are expected and nothing is restarted. */
  isStopping: boolean
  /** The agent answered once: from then on a crash is restarted (before that, provisioning fails). */
  wasReady: boolean
  /** Crashes since the agent last stayed up RESTART_BACKOFF_RESET_MS. */
  crashes: number
  restartTimer?: NodeJS.Timeout
  resetTimer?: NodeJS.Timeout
  /**
   * Another live API of the same data directory supervises the agent: this one neither starts nor stops it, only
   * watches, and takes over when that API is gone (watchSupervisor).
   */
  isObserver?: boolean
  observeTimer?: NodeJS.Timeout
}

export interface ProcessRuntimeOptions {
  agents: AgentsConfig
  database: Config['database']
  /** Passed on to agents (AGENT_ALLOW_PRIVATE_TARGETS). @default private targets refused */
  network?: Config['network']
  /** Passed on to agents (AGENT_OPENID4VC). @default none */
  features?: AgentFeatures
  logger: Logger
  /** Restart delays; tests shorten them. @default the RESTART_BACKOFF_* constants */
  backoff?: { initialMs: number; maxMs: number; resetMs: number }
}

/** The wait before restarting after `crashes` crashes in a row: initial, doubled per crash, capped. */
export function restartDelayMs(crashes: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.max(0, Math.min(crashes - 1, 30)))
}

/**
 * The embedded runtime (DESIGN.md, "Agent runtimes"): each agent is a child process of the API, started with
 * `process.execPath <dist/agent/src/main.js>` on ports the API allocated, its PGlite data under
 * `<DATA_DIR>/agents/<orgId>` (or, when the API runs on PostgreSQL, the same database with schema
 * `agent_<short org id>`). Children stop with the API and start again with it (AgentsService.start).
 * A child watches its standard input, a pipe from the API, and stops when it closes: it never outlives the
 * API, even a killed one. An agent that crashed after it was ready is restarted with backoff (as a kubelet
 * restarts a container). The pid of each agent is noted on disk, so that a restarted API adopts an agent
 * still answering with its key and stops one that does not, instead of failing on taken ports.
 * API replicas that share the data directory agree on one supervisor per agent (the note of
 * `claimSupervision`): the others watch its agent and take it over when that replica dies (docs/decisions.md,
 * "One supervisor per agent"), so two replicas never start, stop or restart one agent against each other.
 */
export class ProcessRuntime extends AgentRuntime {
  public readonly kind = 'process'
  private readonly supervisions = new Map<string, Supervision>()
  private readonly spares = new Set<Spare>()
  private listener: AgentLifecycleListener | undefined
  private isClosed = false

  public constructor(private readonly options: ProcessRuntimeOptions) {
    super()
  }

  public override watch(listener: AgentLifecycleListener): void {
    this.listener = listener
  }

  public async provision(launch: AgentLaunch, options: ProvisionOptions = {}): Promise<AgentRuntimeStatus> {
    const ports = launch.ports
    if (!ports) throw new InvalidStateError('The process runtime needs the allocated ports')
    const entrypoint = this.entrypoint()
    if (!existsSync(entrypoint)) {
      return { phase: 'failed', ports, reason: `Agent program not found at ${entrypoint} (run npm run build)` }
    }
    if (this.isClosed) throw new InvalidStateError('The process runtime is closed')
    let supervision = this.supervisions.get(launch.orgId)
    if (!supervision || supervision.isStopping) {
      supervision = { orgId: launch.orgId, launch, ports, isStopping: false, wasReady: false, crashes: 0 }
      this.supervisions.set(launch.orgId, supervision)
    }
    supervision.launch = launch
    if (!supervision.current || supervision.current.exited) {
      if (!(await claimSupervision(this.supervisorFile(launch.orgId)))) return this.observe(supervision, options)
      this.stopWatching(supervision)
      clearTimeout(supervision.restartTimer)
      supervision.current = await this.startIncarnation(supervision)
    }
    await options.onStatus?.({ phase: 'pending', ports })
    let result = await this.awaitReady(supervision, supervision.current, options.signal)
    const launched = supervision.current
    if (
      result.phase === 'failed' &&
      launched.wasSpare &&
      launched.exited &&
      !supervision.isStopping &&
      !this.isClosed
    ) {
      // A spare can die as it is taken, before its exit is known (killed, out of memory): a fresh start, once, rather
      // than a failed organization. An agent that cannot start fails the same way again.
      this.log(launch.orgId).warn('The spare agent process exited at its launch; starting the agent afresh', {
        pid: launched.pid,
        reason: result.reason,
      })
      supervision.current = await this.startIncarnation(supervision, { mayTakeSpare: false })
      result = await this.awaitReady(supervision, supervision.current, options.signal)
    }
    if (result.phase === 'ready') this.markReady(supervision)
    this.keepSpares()
    return result
  }

  public override trackedAgents(): ReadonlySet<string> {
    return new Set(this.supervisions.keys())
  }

  public override announceReady(orgId: string): boolean {
    const current = this.supervisions.get(orgId)?.current
    if (!current || current.exited) return false
    current.announce()
    return true
  }

  public async status(orgId: string): Promise<AgentRuntimeStatus> {
    const supervision = this.supervisions.get(orgId)
    if (!supervision) return { phase: 'absent' }
    const { ports, current } = supervision
    if (supervision.isObserver) {
      const answer = await probeAgent(this.adminUrl(ports), PROBE_TIMEOUT_MS)
      return answer.ok
        ? { phase: 'ready', ports, controllerEndpoint: this.adminUrl(ports) }
        : { phase: 'pending', ports }
    }
    if (!current || current.exited) {
      return supervision.restartTimer
        ? { phase: 'pending', ports }
        : { phase: 'failed', ports, reason: `Agent process exited (${describeExit(current?.exited)})` }
    }
    const adminUrl = this.adminUrl(ports)
    const result = await probeAgent(adminUrl, PROBE_TIMEOUT_MS)
    return result.ok ? { phase: 'ready', ports, controllerEndpoint: adminUrl } : { phase: 'pending', ports }
  }

  /**
   * Stops the agent for good, whichever API of the data directory runs it: without a supervisor note, no other API
   * takes it over or restarts it.
   */
  public async stop(orgId: string): Promise<void> {
    const supervision = this.supervisions.get(orgId)
    if (!supervision || supervision.isObserver) {
      // Not run by this process: another API's (it sees its note gone and does not restart it), or one that
      // outlived an earlier API and may still hold the ports.
      if (supervision) this.forget(supervision)
      removeSupervision(this.supervisorFile(orgId))
      await this.stopRecorded(orgId)
      return
    }
    await this.stopSupervised(supervision)
    releaseSupervision(this.supervisorFile(orgId))
  }

  /** Stops the agent and deletes its data directory (PGlite files; on PostgreSQL its schema is the caller's). */
  public async remove(orgId: string): Promise<void> {
    await this.stop(orgId)
    rmSync(this.embeddedDataDir(orgId), { recursive: true, force: true })
    this.log(orgId).info('Removed agent data')
  }

  /**
   * Stops the agents this API supervises and leaves their notes: they name a process that is about to be gone, so
   * an API that watches them takes them over. Those it only watches keep running under their supervisor.
   */
  public async close(): Promise<void> {
    this.isClosed = true
    await Promise.all([
      ...[...this.supervisions.values()].map(async (supervision) => {
        if (supervision.isObserver) this.forget(supervision)
        else await this.stopSupervised(supervision)
      }),
      ...[...this.spares].map((spare) => this.stopSpare(spare)),
    ])
  }

  /** Stops the agent this API runs; its supervisor note is the caller's business. */
  private async stopSupervised(supervision: Supervision): Promise<void> {
    const { orgId } = supervision
    this.forget(supervision)
    const current = supervision.current
    if (current && !current.exited) {
      await this.terminate(current)
      this.log(orgId).info('Stopped agent process', { pid: current.pid })
    }
    removeProcessRecord(this.recordFile(orgId))
  }

  /** Ends this API's part in the agent: no restart, no watch. */
  private forget(supervision: Supervision): void {
    if (this.supervisions.get(supervision.orgId) === supervision) this.supervisions.delete(supervision.orgId)
    supervision.isStopping = true
    clearTimeout(supervision.restartTimer)
    clearTimeout(supervision.resetTimer)
    this.stopWatching(supervision)
  }

  /**
   * Waits for an agent that another live API supervises to answer GET /agent, as awaitReady does, without starting
   * it, and watches it from then on. Never fails it: its supervisor decides that. When that API dies meanwhile, the
   * watch takes over and this API starts the agent, so a later poll finds it.
   */
  private async observe(supervision: Supervision, options: ProvisionOptions): Promise<AgentRuntimeStatus> {
    const { pollAttempts, pollIntervalMs } = this.options.agents
    const { ports, orgId } = supervision
    if (!supervision.isObserver) {
      this.log(orgId).info('Another API supervises the agent; watching it', {
        supervisorPid: otherLiveSupervisor(this.supervisorFile(orgId))?.pid,
      })
    }
    this.watchSupervisor(supervision)
    await options.onStatus?.({ phase: 'pending', ports })
    const adminUrl = this.adminUrl(ports)
    for (let attempt = 1; attempt <= pollAttempts; attempt++) {
      const answer = await probeAgent(adminUrl, PROBE_TIMEOUT_MS)
      if (answer.ok) return { phase: 'ready', ports, controllerEndpoint: adminUrl }
      await sleep(pollIntervalMs, options.signal)
      if (options.signal?.aborted) break
    }
    return { phase: 'pending', ports }
  }

  /** Checks every second that the supervisor of a watched agent still runs, and takes over when it does not. */
  private watchSupervisor(supervision: Supervision): void {
    supervision.isObserver = true
    if (supervision.observeTimer) return
    let isChecking = false
    supervision.observeTimer = setInterval(() => {
      if (isChecking) return
      isChecking = true
      this.takeOverIfUnsupervised(supervision)
        .catch((error: unknown) =>
          this.log(supervision.orgId).error('Could not take over the agent', { error: (error as Error).message }),
        )
        .finally(() => (isChecking = false))
    }, SUPERVISOR_CHECK_MS)
    supervision.observeTimer.unref()
  }

  private stopWatching(supervision: Supervision): void {
    clearInterval(supervision.observeTimer)
    supervision.observeTimer = undefined
    supervision.isObserver = false
  }

  /**
   * The watched agent's supervisor is gone (its agent went with it, or is going): this API claims the note and
   * starts the agent as a restart, adopting it if it still answers. No note: the agent was stopped on purpose.
   */
  private async takeOverIfUnsupervised(supervision: Supervision): Promise<void> {
    if (supervision.isStopping || this.isClosed || this.supervisions.get(supervision.orgId) !== supervision) {
      return this.stopWatching(supervision)
    }
    const file = this.supervisorFile(supervision.orgId)
    if (!readProcessRecord(file)) return this.forget(supervision)
    if (otherLiveSupervisor(file) || !(await claimSupervision(file))) return
    this.stopWatching(supervision)
    this.log(supervision.orgId).warn('The API supervising the agent is gone; taking it over')
    // It was up under its former supervisor: from now on its crashes are restarted here.
    supervision.wasReady = true
    await this.restart(supervision)
  }

  /**
   * Polls GET /agent up to the configured attempts; an exit before the answer fails at once. The agent's readiness
   * announcement (announceReady) ends the current wait early, once: that GET /agent is an extra one, so an
   * announcement that came too soon leaves the spec's attempts to the fallback polling.
   */
  private async awaitReady(
    supervision: Supervision,
    incarnation: Incarnation,
    signal?: AbortSignal,
  ): Promise<AgentRuntimeStatus> {
    const { pollAttempts, pollIntervalMs } = this.options.agents
    const { ports, orgId } = supervision
    const adminUrl = this.adminUrl(ports)
    let last = 'no answer'
    let isAnnouncementPending = true
    for (let attempt = 1; attempt <= pollAttempts; attempt++) {
      const wake = new AbortController()
      const woken = await Promise.race([
        sleep(pollIntervalMs, signal ? AbortSignal.any([signal, wake.signal]) : wake.signal).then(() => 'poll'),
        incarnation.exit.then(() => 'exit'),
        ...(isAnnouncementPending ? [incarnation.announced.then(() => 'announced')] : []),
      ])
      wake.abort()
      if (woken === 'announced') {
        isAnnouncementPending = false
        attempt--
      }
      if (signal?.aborted) return { phase: 'pending', ports }
      if (incarnation.exited) {
        return {
          phase: 'failed',
          ports,
          reason: `Agent process exited with ${describeExit(incarnation.exited)} before GET /agent answered 200`,
        }
      }
      const result = await probeAgent(adminUrl, PROBE_TIMEOUT_MS)
      if (result.ok) return { phase: 'ready', ports, controllerEndpoint: adminUrl }
      last = result.detail
      this.log(orgId).debug('Agent not ready', { attempt, of: pollAttempts, detail: result.detail })
    }
    if (!supervision.wasReady) await this.stop(orgId)
    else await this.terminate(incarnation)
    return {
      phase: 'failed',
      ports,
      reason: `GET /agent did not answer 200 in ${pollAttempts} attempts (last: ${last})`,
    }
  }

  /** The agent answered: crashes are restarted from now on; the backoff resets once it stays up. */
  private markReady(supervision: Supervision): void {
    supervision.wasReady = true
    clearTimeout(supervision.resetTimer)
    supervision.resetTimer = setTimeout(() => {
      supervision.crashes = 0
    }, this.backoff().resetMs)
    supervision.resetTimer.unref()
  }

  /** An exit nobody asked for: a ready agent is started again after the backoff, and the listener told. */
  private onUnexpectedExit(supervision: Supervision, exit: AgentExit): void {
    if (supervision.isStopping || this.isClosed || !supervision.wasReady) return
    if (this.supervisions.get(supervision.orgId) !== supervision) return
    clearTimeout(supervision.resetTimer)
    supervision.crashes += 1
    const { initialMs, maxMs } = this.backoff()
    const delay = restartDelayMs(supervision.crashes, initialMs, maxMs)
    const log = this.log(supervision.orgId)
    log.warn('Agent process crashed; restarting', {
      ...exitData(exit),
      restartInMs: delay,
      crashes: supervision.crashes,
    })
    this.listener?.onExit(supervision.orgId, exit, delay).catch((error: unknown) => {
      log.error('Could not record the agent exit', { error: (error as Error).message })
    })
    supervision.restartTimer = setTimeout(() => {
      supervision.restartTimer = undefined
      this.restart(supervision).catch((error: unknown) => {
        log.error('Could not restart the agent', { error: (error as Error).message })
      })
    }, delay)
  }

  private async restart(supervision: Supervision): Promise<void> {
    if (supervision.isStopping || this.isClosed) return
    if (readProcessRecord(this.supervisorFile(supervision.orgId))?.pid !== process.pid) {
      // Another API stopped the agent for good (stop removed the note): not restarted.
      this.log(supervision.orgId).info('The agent was stopped by another API; not restarting it')
      return this.forget(supervision)
    }
    const incarnation = await this.startIncarnation(supervision)
    supervision.current = incarnation
    const result = await this.awaitReady(supervision, incarnation)
    this.keepSpares()
    // A restart that exits or never answers ends in onUnexpectedExit again, with a longer backoff.
    if (result.phase !== 'ready' || supervision.isStopping) return
    this.markReady(supervision)
    this.log(supervision.orgId).info('Agent restarted', { pid: incarnation.pid })
    await this.listener?.onRestarted(supervision.orgId, result.controllerEndpoint)
  }

  /**
   * Starts the agent, unless the recorded process from an earlier API still runs: adopted when GET /agent
   * answers with its key, stopped otherwise (it holds the ports and is not the agent we know).
   */
  private async startIncarnation(
    supervision: Supervision,
    { mayTakeSpare = true }: { mayTakeSpare?: boolean } = {},
  ): Promise<Incarnation> {
    const { orgId, launch, ports } = supervision
    const log = this.log(orgId)
    const record = readProcessRecord(this.recordFile(orgId))
    if (record && record.pid !== process.pid && isRecordedProcessAlive(record)) {
      const answer = await probeAgent(this.adminUrl(ports), PROBE_TIMEOUT_MS, await launch.apiKey())
      if (answer.ok) {
        log.info('Adopted running agent process', { pid: record.pid })
        return this.adopt(supervision, record)
      }
      log.warn('Stopping a stale agent process', { pid: record.pid, detail: answer.detail })
      await terminatePid(record)
    }
    const entrypoint = this.entrypoint()
    const env = this.agentEnv(launch, ports, await launch.secrets())
    if (supervision.isStopping || this.isClosed) throw new InvalidStateError('The agent was stopped while starting')
    // Every agent gets its settings (its keys among them) as a launch line on its pipe, never in its environment,
    // which /proc shows to the user's other processes: a spare's line now, a new process's as it starts.
    const spare = mayTakeSpare ? this.takeSpare() : undefined
    let child: ChildProcess
    if (spare) {
      child = spare.child
      spare.output.log = log
    } else {
      child = this.spawnLaunchable(entrypoint, { stageCopy: !this.hasCluster(orgId) })
      this.forwardOutput(child, () => log)
    }
    child.stdin?.write(spareLaunchLine(env))
    const incarnation: Incarnation = {
      ...announcement(),
      pid: child.pid,
      child,
      wasSpare: spare !== undefined,
      exit: new Promise((resolve) => {
        const finish = (exit: AgentExit) => {
          if (incarnation.exited) return
          incarnation.exited = exit
          removeProcessRecord(this.recordFile(orgId))
          resolve(exit)
          this.onUnexpectedExit(supervision, exit)
        }
        child.once('exit', (code, signal) => {
          log.info('Agent process exited', { pid: child.pid, code, signal })
          finish({ code, signal, at: new Date() })
        })
        child.once('error', (error) => {
          log.error('Agent process failed to start', { error: error.message })
          finish({ code: -1, signal: null, at: new Date() })
        })
      }),
    }
    if (child.pid !== undefined) writeProcessRecord(this.recordFile(orgId), child.pid)
    log.info('Started agent process', {
      pid: child.pid,
      adminPort: ports.adminPort,
      inboundPort: ports.inboundPort,
      wasSpare: spare !== undefined,
    })
    return incarnation
  }

  /**
   * `node <agent>` with `env`: stdin is the supervisor pipe (AGENT_EXIT_ON_STDIN_CLOSE), closed by the kernel with
   * us; the agent reads its launch line from it first.
   */
  private spawnAgent(entrypoint: string, env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [...AGENT_COMMAND_LINE_OPTIONS, entrypoint], {
      cwd: repositoryRoot(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    child.stdin?.on('error', () => undefined)
    return child
  }

  /**
   * Starts spares up to AGENT_SPARES. Called when a launch has finished (its agent answered, or failed), not when a
   * launch takes a spare: a spare loading beside an agent's start would slow that start down on a small machine.
   */
  private keepSpares(): void {
    const wanted = this.options.agents.spares
    if (this.isClosed || this.spares.size >= wanted) return
    try {
      const entrypoint = this.entrypoint()
      if (!existsSync(entrypoint)) return
      this.removeStaleSpareDirs()
      while (this.spares.size < wanted) this.spares.add(this.startSpare(entrypoint))
    } catch (error) {
      // A spare only saves time: the launch that called this has its result, and the next launch tries again.
      this.options.logger.warn('Could not start a spare agent process', { error: (error as Error).message })
    }
  }

  /**
   * `node <agent>` waiting for its launch line (common/agent-contract/spare.ts), with no settings of an organization in
   * its environment. `stageCopy` (embedded only): it copies the PGlite template while its modules load, for a new
   * cluster; a restarted agent has its cluster.
   */
  private spawnLaunchable(entrypoint: string, { stageCopy }: { stageCopy: boolean }): ChildProcess {
    const embedded = this.options.database.kind !== 'postgres'
    return this.spawnAgent(entrypoint, {
      PATH: process.env.PATH ?? '',
      // Read by the C library at the process's start: a launch line would come too late for them.
      ...AGENT_MALLOC_ENV,
      [AGENT_SPARE_ENV]: '1',
      ...(embedded && stageCopy ? { [AGENT_SPARE_DIR_ENV]: this.spareDir() } : {}),
    })
  }

  /** Whether the organization's embedded agent has its PGlite cluster already (false on PostgreSQL). */
  private hasCluster(orgId: string): boolean {
    if (this.options.database.kind === 'postgres') return false
    return existsSync(path.join(this.embeddedDataDir(orgId), PGDATA_DIR_NAME, 'PG_VERSION'))
  }

  /** An embedded agent's data directory (AGENT_DATA_DIR); its PGlite cluster is the `pgdata` folder in it. */
  private embeddedDataDir(orgId: string): string {
    return path.join(this.options.agents.dataDir, orgId)
  }

  private startSpare(entrypoint: string): Spare {
    const embedded = this.options.database.kind !== 'postgres'
    const child = this.spawnLaunchable(entrypoint, { stageCopy: true })
    const log = this.options.logger.child({ component: 'agent-runtime', spare: child.pid })
    const spare: Spare = { child, output: { log }, release: () => undefined }
    this.forwardOutput(child, () => spare.output.log)
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      this.spares.delete(spare)
      if (embedded && child.pid !== undefined) {
        try {
          rmSync(path.join(this.spareDir(), String(child.pid)), { recursive: true, force: true })
        } catch {
          // Its template copy may still be finishing: the next spare start removes the folder of a spare that is gone.
        }
      }
      // Not started again here: the next launch's end starts one, so a spare that cannot start never loops.
      if (!this.isClosed) log.warn('Spare agent process exited', { pid: child.pid, code, signal })
    }
    const onError = (error: Error) => {
      this.spares.delete(spare)
      log.error('Spare agent process failed to start', { error: error.message })
    }
    child.once('exit', onExit)
    child.once('error', onError)
    spare.release = () => {
      child.off('exit', onExit)
      child.off('error', onError)
    }
    log.debug('Started a spare agent process', { pid: child.pid })
    return spare
  }

  /** A running spare, out of the pool and no longer watched by it; undefined when there is none. */
  private takeSpare(): Spare | undefined {
    for (const spare of this.spares) {
      this.spares.delete(spare)
      spare.release()
      const { child } = spare
      if (child.exitCode === null && child.signalCode === null && child.stdin?.writable) return spare
      child.kill('SIGKILL')
    }
    return undefined
  }

  /** SIGTERM (a spare has no state to keep), SIGKILL after the grace period; resolves when it is gone. */
  private async stopSpare(spare: Spare): Promise<void> {
    const { child } = spare
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await exited
    clearTimeout(timer)
  }

  /** Where embedded spares copy the PGlite template ahead of need, each in a folder named by its pid. */
  private spareDir(): string {
    return path.join(this.options.agents.dataDir, SPARES_DIR_NAME)
  }

  /** Folders of spares that are gone (killed before they could remove theirs); live ones may be another API's. */
  private removeStaleSpareDirs(): void {
    const dir = this.spareDir()
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir)) {
      const pid = Number(entry)
      if (!Number.isInteger(pid) || !isRecordedProcessAlive({ pid }))
        rmSync(path.join(dir, entry), { recursive: true, force: true })
    }
  }

  /** An agent that is not our child: its exit is noticed by checking its pid every second. */
  private adopt(supervision: Supervision, record: ProcessRecord): Incarnation {
    let timer: NodeJS.Timeout | undefined
    const announced = announcement()
    // It answered GET /agent with its key just now: no wait for the first poll.
    announced.announce()
    const incarnation: Incarnation = {
      ...announced,
      pid: record.pid,
      exit: new Promise((resolve) => {
        timer = setInterval(() => {
          if (isRecordedProcessAlive(record)) return
          clearInterval(timer)
          // Not our child: its exit code cannot be known.
          const exit: AgentExit = { code: null, signal: null, at: new Date() }
          incarnation.exited = exit
          removeProcessRecord(this.recordFile(supervision.orgId))
          resolve(exit)
          this.onUnexpectedExit(supervision, exit)
        }, ADOPTED_CHECK_MS)
        timer.unref()
      }),
      stopAdoptedCheck: () => clearInterval(timer),
    }
    return incarnation
  }

  /** SIGTERM, then SIGKILL after the grace period; resolves when the process is gone. */
  private async terminate(incarnation: Incarnation): Promise<void> {
    if (incarnation.exited) return
    if (incarnation.child) {
      incarnation.child.kill('SIGTERM')
      const timer = setTimeout(() => incarnation.child?.kill('SIGKILL'), STOP_GRACE_MS)
      await incarnation.exit
      clearTimeout(timer)
      return
    }
    incarnation.stopAdoptedCheck?.()
    if (incarnation.pid !== undefined) {
      const record = { pid: incarnation.pid, startTime: processStartTime(incarnation.pid) }
      await terminatePid(record)
    }
    incarnation.exited = { code: null, signal: 'SIGTERM', at: new Date() }
  }

  /** Stops the process recorded on disk for the organization, if it still runs (an earlier API's agent). */
  private async stopRecorded(orgId: string): Promise<void> {
    const file = this.recordFile(orgId)
    const record = readProcessRecord(file)
    if (record && record.pid !== process.pid && isRecordedProcessAlive(record)) {
      this.log(orgId).info('Stopping agent process of an earlier API', { pid: record.pid })
      await terminatePid(record)
    }
    removeProcessRecord(file)
  }

  private recordFile(orgId: string): string {
    return processRecordPath(this.options.agents.dataDir, orgId)
  }

  private supervisorFile(orgId: string): string {
    return supervisorRecordPath(this.options.agents.dataDir, orgId)
  }

  private backoff(): { initialMs: number; maxMs: number; resetMs: number } {
    return (
      this.options.backoff ?? {
        initialMs: RESTART_BACKOFF_INITIAL_MS,
        maxMs: RESTART_BACKOFF_MAX_MS,
        resetMs: RESTART_BACKOFF_RESET_MS,
      }
    )
  }

  private agentEnv(launch: AgentLaunch, ports: PortPair, secrets: AgentSecrets): Record<string, string> {
    const { agents, database } = this.options
    let storage: { databaseUrl: string; databaseSchema: string } | { dataDir: string }
    if (database.kind === 'postgres') {
      storage = { databaseUrl: database.url, databaseSchema: agentSchemaName(launch.orgId) }
    } else {
      const dataDir = this.embeddedDataDir(launch.orgId)
      mkdirSync(dataDir, { recursive: true, mode: 0o700 })
      storage = { dataDir }
    }
    return {
      PATH: process.env.PATH ?? '',
      ...AGENT_MALLOC_ENV,
      ...agents.tuningEnv,
      ...buildAgentEnv({
        label: launch.label,
        adminPort: ports.adminPort,
        inboundPort: ports.inboundPort,
        endpoint: agentEndpoint(agents.publicEndpointBase, agents.host, ports.inboundPort),
        apiKey: secrets.apiKey,
        walletKey: secrets.walletKey,
        ...(secrets.eventToken
          ? { eventUrl: `${agents.internalUrl}${agentEventsPath(launch.orgId)}`, eventToken: secrets.eventToken }
          : {}),
        // The API serves the ledger's routes (/v1/ledger) beside the event sink.
        ledgerUrl: agents.internalUrl,
        logLevel: this.options.logger.isEnabled('debug') ? 'debug' : 'info',
        bindHost: agents.bindHost,
        exitOnStdinClose: true,
        allowPrivateTargets: this.options.network?.allowPrivateTargets ?? false,
        openId4Vc: this.options.features?.openId4Vc ?? false,
        ...storage,
      }),
      // TEST-ONLY: agents of one test share a directory as their AnonCreds registry (agent/src/config.ts).
      ...(agents.anonCredsTestRegistryDir
        ? { [TEST_ANONCREDS_REGISTRY_DIR_ENV]: agents.anonCredsTestRegistryDir }
        : {}),
    }
  }

  /** Each line of the child becomes one JSON line of ours, tagged with the organization (`log()`'s at the time). */
  private forwardOutput(child: ChildProcess, log: () => Logger): void {
    for (const [stream, fallback] of [
      [child.stdout, 'info'],
      [child.stderr, 'warn'],
    ] as const) {
      if (!stream) continue
      createInterface({ input: stream }).on('line', (line) => {
        const parsed = parseJsonLine(line)
        if (parsed) {
          const { level, msg, ...data } = parsed
          log().log(isLevel(level) ? level : fallback, typeof msg === 'string' ? msg : 'Agent output', {
            agentLog: data,
          })
        } else if (line.trim() !== '') {
          log().log(fallback, 'Agent output', { line })
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
  return publicBase ? endpointFromBase(publicBase, inboundPort) : `http://${host}:${inboundPort}`
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

/** SIGTERM to a process that is not our child, SIGKILL after the grace period; resolves when it is gone. */
async function terminatePid(record: ProcessRecord): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(record.pid, name)
    } catch {
      // already gone
    }
  }
  signal('SIGTERM')
  const deadline = Date.now() + STOP_GRACE_MS
  while (isRecordedProcessAlive(record)) {
    if (Date.now() > deadline) {
      signal('SIGKILL')
      await sleep(100)
      if (!isRecordedProcessAlive(record)) return
    }
    await sleep(50)
  }
}

function describeExit(exit: AgentExit | undefined): string {
  if (!exit) return 'no exit recorded'
  if (exit.signal) return `signal ${exit.signal}`
  return exit.code === null ? 'an unknown status' : `code ${exit.code}`
}

function exitData(exit: AgentExit): Record<string, unknown> {
  return { code: exit.code, signal: exit.signal }
}
