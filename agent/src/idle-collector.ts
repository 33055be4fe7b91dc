import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** How often the process's CPU use is looked at. */
export const IDLE_CHECK_INTERVAL_MS = 2000
/**
 * CPU milliseconds per check at or below which the check counts as quiet: a tenth of a core. An idle agent still
 * uses about 50 ms per check (timers, pollers); one in an exchange burst uses most of a core.
 */
export const IDLE_CPU_MS = 200
/**
 * Quiet checks in a row before the agent counts as idle (4-6 s after its work stopped): a pause between two
 * exchanges of a steady load is not idleness, and a collection there would cost its CPU and its pause for nothing.
 */
export const QUIET_CHECKS_FOR_IDLE = 3
/**
 * How far V8's heap (committed, as `getHeapStatistics().total_heap_size`) must have grown since the last collection
 * left it for a collection to be worth its cost: about 100-250 ms of CPU with the event loop stopped, for an agent
 * heap of 80 MB (docs/decisions.md, "Agent idle collection").
 */
export const COLLECT_GROWTH_BYTES = 16 * 1024 * 1024

export interface IdleCollectorHooks {
  /** The collection itself (V8's memory-reducing full collection by default). */
  collect?: () => void
  cpuUsage?: () => NodeJS.CpuUsage
  /** Bytes V8's heap holds committed now. */
  heapCommitted?: () => number
  /** Called after each collection with its duration (the agent's metric). */
  onCollected?: (seconds: number) => void
}

/**
 * Collects garbage once each time the agent goes idle after work, when the heap has grown enough since the last
 * collection to be worth it. V8 sizes its heap for the process's memory limit (gigabytes) and keeps garbage of a
 * burst of exchanges resident while idle: about +190 MB after 60 iterations, not given back after minutes. One
 * memory-reducing collection when the work stops returns it (docs/benchmarks.md, agent memory).
 */
export class IdleCollector {
  private timer: NodeJS.Timeout | undefined
  private last: NodeJS.CpuUsage
  /** Quiet checks since the last one with work: the idle period is dealt with once, when it reaches the count. */
  private quietChecks = 0
  private committedAfterCollection = 0
  private readonly collect: () => void
  private readonly cpuUsage: () => NodeJS.CpuUsage
  private readonly heapCommitted: () => number

  public constructor(private readonly hooks: IdleCollectorHooks = {}) {
    this.collect = hooks.collect ?? reducingGc()
    this.cpuUsage = hooks.cpuUsage ?? (() => process.cpuUsage())
    this.heapCommitted = hooks.heapCommitted ?? (() => getHeapStatistics().total_heap_size)
    this.last = this.cpuUsage()
  }

  public start(): void {
    this.timer ??= setInterval(() => this.tick(), IDLE_CHECK_INTERVAL_MS).unref()
  }

  public stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** One check: after work, the QUIET_CHECKS_FOR_IDLE-th quiet check in a row collects if the heap grew enough. */
  public tick(): void {
    const now = this.cpuUsage()
    const usedMs = (now.user + now.system - this.last.user - this.last.system) / 1000
    this.last = now
    if (usedMs > IDLE_CPU_MS) {
      this.quietChecks = 0
      return
    }
    if (++this.quietChecks !== QUIET_CHECKS_FOR_IDLE) return
    if (this.heapCommitted() - this.committedAfterCollection < COLLECT_GROWTH_BYTES) return
    const started = process.hrtime.bigint()
    this.collect()
    this.hooks.onCollected?.(Number(process.hrtime.bigint() - started) / 1e9)
    this.committedAfterCollection = this.heapCommitted()
    // The collection's own CPU time is not work.
    this.last = this.cpuUsage()
  }
}

/**
 * V8's full collection, reached without starting Node with --expose-gc. (Setting `--optimize-for-size` around it
 * was tried: V8 applies that flag's implications for good, and the agent then used 12 % more CPU per exchange.)
 */
function reducingGc(): () => void {
  setFlagsFromString('--expose-gc')
  const gc: unknown = runInNewContext('gc')
  if (typeof gc !== 'function') return () => undefined
  // `last-resort` is V8's memory-reducing collection (repeated full collections that compact every fragmented page
  // and give the freed pages back); a plain gc() leaves the heap's pages committed, ~150 MB on PGlite after a burst.
  return () => (gc as (options: GcOptions) => void)(LAST_RESORT_GC)
}

interface GcOptions {
  type: 'major'
  execution: 'sync'
  flavor: 'last-resort'
}

/** The options of V8's gc extension that ask for its memory-reducing collection. */
export const LAST_RESORT_GC: GcOptions = { type: 'major', execution: 'sync', flavor: 'last-resort' }
