import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import path from 'node:path'
import { EXIT_WITH_TEST_PROCESS, waitUntil } from './agent-process'

const ROOT = path.resolve(__dirname, '../..')
const STDERR_TAIL_CHARS = 2_000

/** The built API (`node dist/api/src/main.js`, build first) as a real process, for kill-and-restart tests. */
export interface ApiProcess {
  url: string
  process: ChildProcess
  /** Resolves with the exit once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): Promise<void>
}

/**
 * Starts the built API with `env` (plus PATH) and waits until /health/live answers. Output goes nowhere
 * unless IDPLANE_TEST_LOGS is set.
 */
export async function spawnApi(port: number, env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--require', EXIT_WITH_TEST_PROCESS, 'dist/api/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      API_GATEWAY_PORT: String(port),
      API_GATEWAY_HOST: '127.0.0.1',
      // Agents and receivers of tests listen on loopback (production refuses private targets).
      NETWORK_ALLOW_PRIVATE_TARGETS: 'true',
      // No spare agent process beside every test's agents (CI's CPU); agents-spare.int.test turns it on.
      AGENT_SPARES: '0',
      ...env,
    },
    stdio: ['ignore', process.env.IDPLANE_TEST_LOGS ? 'inherit' : 'ignore', 'pipe'],
  })
  // Passed through, and its end kept for the error when the API dies before it answers.
  let stderrTail = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk)
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const url = `http://127.0.0.1:${port}`
  await waitUntil(async () => {
    if (child.exitCode !== null) throw new Error(`The API exited with ${child.exitCode}: ${stderrTail.trim()}`)
    const response = await fetch(`${url}/health/live`).catch(() => undefined)
    return response?.status === 200 ? true : undefined
  }, 60_000)
  return {
    url,
    process: child,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}

/** Whether a process with this pid exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The pid of the process listening on a TCP port of this machine (from `ss`), if any. */
export function pidListeningOn(port: number): number | undefined {
  const output = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' })
  const match = /pid=(\d+)/.exec(output)
  return match ? Number(match[1]) : undefined
}
