import { spawn } from 'node:child_process'
import { EXIT_WITH_TEST_PROCESS, waitUntil } from '../helpers/agent-process'
import { isRunning } from '../helpers/api-process'

/**
 * The API and agent processes the tests spawn end when the test process that started them dies (a jest run killed
 * by hand left them running before). A stand-in for the jest worker starts a long-lived program, with the preload
 * and without it, and is killed with SIGKILL.
 */
describe('programs spawned by tests', () => {
  /** Starts a stand-in test process, which starts the program; resolves with both pids. */
  async function testProcessWithProgram(preload: boolean): Promise<{ testProcess: number; program: number }> {
    const programArgs = [...(preload ? ['--require', EXIT_WITH_TEST_PROCESS] : []), '-e', 'setInterval(() => {}, 1000)']
    const standIn = spawn(
      process.execPath,
      [
        '-e',
        `const child = require('node:child_process').spawn(process.execPath, ${JSON.stringify(programArgs)}, { stdio: 'ignore' })
         console.log(child.pid)
         setInterval(() => {}, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let output = ''
    standIn.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    const program = await waitUntil(async () => (output.includes('\n') ? Number(output.trim()) : undefined), 10_000)
    return { testProcess: standIn.pid ?? 0, program }
  }

  it('end when the test process that started them is killed, and live on without the preload', async () => {
    const withPreload = await testProcessWithProgram(true)
    const without = await testProcessWithProgram(false)
    try {
      process.kill(withPreload.testProcess, 'SIGKILL')
      process.kill(without.testProcess, 'SIGKILL')
      await waitUntil(async () => (isRunning(withPreload.program) ? undefined : true), 10_000)
      // The same program without the preload outlives its test process (what the preload is for).
      expect(isRunning(without.program)).toBe(true)
    } finally {
      for (const pid of [withPreload.program, without.program]) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    }
  }, 30_000)
})
