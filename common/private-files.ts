import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs'
import path from 'node:path'

/** Embedded data (databases, queue, mail, keys) is for the program's own user only. */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/**
 * From now on, files and directories this process creates are its owner's only (umask 077). Needed beyond an
 * explicit mode because PGlite, the queue and the mailer create files throughout the process's life with the
 * default 0666/0777, which a permissive umask (0 in many containers) leaves world-writable.
 */
export function restrictFileCreation(): void {
  process.umask(process.umask() | 0o077)
}

/**
 * Makes `dir` and everything under it owner-only (directories 0700, files 0600), so data written before (by an
 * older version or under another umask) is closed too. Symbolic links are not followed. Nothing when missing.
 */
export function restrictTree(dir: string): void {
  if (!existsSync(dir)) return
  const stat = lstatSync(dir)
  if (stat.isSymbolicLink()) return
  if (!stat.isDirectory()) {
    chmodSync(dir, PRIVATE_FILE_MODE)
    return
  }
  chmodSync(dir, PRIVATE_DIR_MODE)
  for (const entry of readdirSync(dir)) restrictTree(path.join(dir, entry))
}
