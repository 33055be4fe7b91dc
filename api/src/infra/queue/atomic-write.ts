import { randomUUID } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import path from 'node:path'

/**
 * Writes `data` to `file` so that a reader (or a process restarted after a crash) sees either the old
 * content or the whole new one, never a torn file: write a temporary file in the same directory, fsync it,
 * rename it over the target, fsync the directory. Temporary files start with '.' and end with '.tmp'.
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const dir = path.dirname(file)
  const temporary = path.join(dir, `.${path.basename(file)}.${randomUUID().slice(0, 8)}.tmp`)
  const handle = await open(temporary, 'wx', 0o600)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncDirectory(dir)
}

/** Makes a rename or unlink in `dir` durable (a no-op where directories cannot be opened, e.g. Windows). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Directory fsync is an extra guarantee against power loss, not needed against a crashed process.
  } finally {
    await handle?.close()
  }
}

export function isTemporaryFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp')
}
