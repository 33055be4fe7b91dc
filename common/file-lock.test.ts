import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { acquireFileLock, releaseFileLock } from './file-lock'

describe('acquireFileLock', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'idplane-lock-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('takes a free lock and records its pid', () => {
    const lock = path.join(dir, 'free.lock')
    acquireFileLock(lock, 'the test directory')
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
    releaseFileLock(lock)
    expect(existsSync(lock)).toBe(false)
  })

  it('refuses a lock held by another live process', () => {
    const lock = path.join(dir, 'held.lock')
    writeFileSync(lock, '1') // pid 1 is always alive
    expect(() => acquireFileLock(lock, 'the test directory')).toThrow('the test directory is in use by process 1')
  })

  it('takes over a lock left by a process that died', () => {
    const lock = path.join(dir, 'stale.lock')
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(lock, dead)
    acquireFileLock(lock, 'the test directory')
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
  })
})
