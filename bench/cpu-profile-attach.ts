/**
 * A CPU profile of a Node process this benchmark did not start with `--cpu-prof` (an organization agent, which the
 * API starts): SIGUSR1 opens the process's inspector on 127.0.0.1:9229, the profiler runs through the DevTools
 * protocol over its WebSocket until `stop`. The inspector stays open on loopback for the process's life. Benchmarks
 * only: one profiled process per machine (the port is fixed), and the process must not handle SIGUSR1 itself (ours
 * do not).
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'

const INSPECTOR_URL = 'http://127.0.0.1:9229/json/list'

interface Answer {
  id?: number
  result?: Record<string, unknown>
  error?: { message: string }
}

/** The DevTools protocol over one WebSocket: a call resolves with its answer's result. */
class Inspector {
  private nextId = 1
  private readonly pending = new Map<
    number,
    { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }
  >()

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (message) => {
      const answer = JSON.parse(String(message.data)) as Answer
      // Events (no id) are not asked for here.
      if (answer.id === undefined) return
      const waiting = this.pending.get(answer.id)
      if (!waiting) return
      this.pending.delete(answer.id)
      if (answer.error) waiting.reject(new Error(answer.error.message))
      else waiting.resolve(answer.result ?? {})
    })
  }

  public static async open(url: string): Promise<Inspector> {
    const socket = new WebSocket(url)
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true })
      socket.addEventListener('error', () => reject(new Error(`cannot open the inspector at ${url}`)), { once: true })
    })
    return new Inspector(socket)
  }

  public call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.socket.send(JSON.stringify({ id, method, params }))
    })
  }

  public close(): void {
    this.socket.close()
  }
}

/** The inspector's WebSocket address once the process has opened it (up to 5 s after the signal). */
async function inspectorUrl(): Promise<string> {
  const deadline = Date.now() + 5000
  for (;;) {
    try {
      const targets = (await (await fetch(INSPECTOR_URL)).json()) as Array<{ webSocketDebuggerUrl?: string }>
      const url = targets[0]?.webSocketDebuggerUrl
      if (url) return url
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the process opened no inspector on 127.0.0.1:9229')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A profile being taken; `stop` writes it to `<dir>/<name>.cpuprofile` and returns that path. */
export interface AttachedProfile {
  stop(): Promise<string>
}

/** Starts profiling process `pid` (sampling every `intervalUs` microseconds). */
export async function startCpuProfile(
  pid: number,
  dir: string,
  name: string,
  intervalUs = 1000,
): Promise<AttachedProfile> {
  process.kill(pid, 'SIGUSR1')
  const inspector = await Inspector.open(await inspectorUrl())
  try {
    await inspector.call('Profiler.enable')
    await inspector.call('Profiler.setSamplingInterval', { interval: intervalUs })
    await inspector.call('Profiler.start')
  } catch (error) {
    inspector.close()
    throw error
  }
  return {
    async stop() {
      // Only this session ends: the process's inspector stays open (its close() waits for every session to end, this
      // one included, and would hang the process), and the next round connects to it again.
      try {
        const { profile } = await inspector.call('Profiler.stop')
        const file = path.join(dir, `${name}.cpuprofile`)
        writeFileSync(file, JSON.stringify(profile))
        return file
      } finally {
        inspector.close()
      }
    },
  }
}
