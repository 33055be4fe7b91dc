import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** How often the process's CPU use is looked at. */
export const IDLE_CHECK_INTERVAL_MS = 2000
/**
 * CPU milliseconds per check at or below which the agent counts as idle: a tenth of a core. An idle agent still uses
 * about 50 ms per check (timers, pollers); one in an exchange burst uses most of a core.
 */
export const IDLE_CPU_MS = 200

/**
 * Collects garbage once each time the agent goes idle after work. V8 sizes its heap for the process's memory limit
 * (gigabytes) and keeps garbage of a burst of exchanges resident while idle: about +190 MB after 60 iterations,
 * not given back after minutes. One memory-reducing collection when the work stops returns it and costs nothing
 * while the agent is busy (docs/benchmarks.md, agent memory).
 */
export class IdleCollector {
  private timer: NodeJS.Timeout | undefined
  private last: NodeJS.CpuUsage
  private isCollected = false

  public constructor(
    private readonly collect: () => void = reducingGc(),
    private readonly cpuUsage: () => NodeJS.CpuUsage = () => process.cpuUsage(),
  ) {
    this.last = this.cpuUsage()
  }

  public start(): void {
    this.timer ??= setInterval(() => this.tick(), IDLE_CHECK_INTERVAL_MS).unref()
  }

  public stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** One check: after work, the first quiet interval collects. */
  public tick(): void {
    const now = this.cpuUsage()
    const usedMs = (now.user + now.system - this.last.user - this.last.system) / 1000
    this.last = now
    if (usedMs > IDLE_CPU_MS) {
      this.isCollected = false
      return
    }
    if (this.isCollected) return
    this.collect()
    this.isCollected = true
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
