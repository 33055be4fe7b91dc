import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(__dirname, '../..')

/**
 * A supervisor (a middle process) starts the child with piped output and is SIGKILLed; the child then logs, as the
 * agent does when its stop begins, and notes in a file whether it lived on.
 */
async function childAfterSupervisorDies(withGuard: boolean): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'supervisor-output-'))
  const note = path.join(dir, 'note')
  const child = [
    withGuard ? `require('./agent/src/supervisor-output').outliveClosedOutput()` : '',
    `const fs = require('node:fs')`,
    `process.stdin.on('end', () => {`,
    `  process.stdout.write('stopping\\n')`,
    `  setTimeout(() => { fs.writeFileSync(${JSON.stringify(note)}, 'lived on'); process.exit(0) }, 200)`,
    `})`,
    `process.stdin.resume()`,
  ].join('\n')
  const supervisor = [
    `const { spawn } = require('node:child_process')`,
    `const child = spawn(process.execPath, ['-r', './bench/register-ts.cjs', '-e', ${JSON.stringify(child)}], { stdio: 'pipe' })`,
    `child.stdout.resume()`,
    `setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1500)`,
  ].join('\n')
  await new Promise((resolve) => spawn(process.execPath, ['-e', supervisor], { cwd: root }).once('exit', resolve))
  // The child has a second to log and note.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const noted = existsSync(note) ? readFileSync(note, 'utf8') : 'died'
  rmSync(dir, { recursive: true, force: true })
  return noted
}

describe('outliveClosedOutput', () => {
  jest.setTimeout(30_000)

  it('lets a process whose supervisor died log and finish its stop', async () => {
    expect(await childAfterSupervisorDies(true)).toBe('lived on')
  })

  it('is needed: without it the first log line after the supervisor died ends the process', async () => {
    expect(await childAfterSupervisorDies(false)).toBe('died')
  })
})
