import { accessSync, constants } from 'node:fs'
import path from 'node:path'

/** True on a CI run (`CI` set to anything but empty, `0` or `false`, as CI services set it). */
export function isCiRun(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== '0' && value !== 'false'
}

/**
 * Whether a suite that needs outside tools can run. With every tool present: true. With some missing on a CI
 * run: throws, so the test file fails instead of passing with its checks silently skipped. Elsewhere: prints
 * one SKIP line naming what is missing and returns false.
 * @param missing what is not installed, each with how to get it (empty when everything is there)
 * @throws Error on a CI run when something is missing
 */
export function requireTools(suite: string, missing: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  if (missing.length === 0) return true
  const message = `${suite}: not installed: ${missing.join(', ')}`
  if (isCiRun(env)) throw new Error(`${message} (a CI run needs every test tool; it does not skip)`)
  console.warn(`SKIP ${message}`)
  return false
}

/** The first executable named `name` in the directories of `PATH`, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue
    const file = path.join(dir, name)
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {
      // Not in this directory, or not executable: look further.
    }
  }
  return undefined
}
