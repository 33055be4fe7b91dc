import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'
import { IdplaneError } from './errors'

/**
 * An exclusive lock on a data directory, as a file holding the owner's pid. PGlite has no lock of its own
 * (DESIGN.md), so every program that opens one takes this first. A lock left by a process that died is taken
 * over; one held by a live process is refused.
 * @throws IdplaneError when another live process holds the lock
 */
export function acquireFileLock(lockPath: string, what: string): void {
  mkdirSync(path.dirname(lockPath), { recursive: true })
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(readFileSync(lockPath, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner)) {
        throw new IdplaneError(`${what} is in use by process ${owner}`)
      }
      rmSync(lockPath, { force: true })
    }
  }
  throw new IdplaneError(`Could not lock ${what}`)
}

export function releaseFileLock(lockPath: string): void {
  rmSync(lockPath, { force: true })
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
