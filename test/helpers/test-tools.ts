import { accessSync, constants, existsSync } from 'node:fs'
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
 *
 * `.ci/run` installs the tools in the background while jest starts (the kube-apiserver build takes minutes): it
 * names a file in IDPLANE_TEST_TOOLS_PENDING that exists until the installation ended, and the suites that need a
 * tool run last (test/jest/sequencer.cjs). So `missing` is asked only after that file is gone.
 * @param missing what is not installed, each with how to get it (empty when everything is there)
 * @throws Error on a CI run when something is missing
 */
export function requireTools(
  suite: string,
  missing: () => readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  waitForToolInstallation(suite, env)
  const absent = missing()
  if (absent.length === 0) return true
  const message = `${suite}: not installed: ${absent.join(', ')}`
  if (isCiRun(env)) throw new Error(`${message} (a CI run needs every test tool; it does not skip)`)
  console.warn(`SKIP ${message}`)
  return false
}

/** How long a suite waits for the background installation; the kube-apiserver build took 5 to 12 minutes. */
const TOOL_INSTALLATION_WAIT_MS = 25 * 60_000

/**
 * Blocks (synchronously: the callers decide at module load whether to describe or skip) while the file named by
 * IDPLANE_TEST_TOOLS_PENDING exists, at most TOOL_INSTALLATION_WAIT_MS.
 */
export function waitForToolInstallation(suite: string, env: NodeJS.ProcessEnv = process.env): void {
  const pending = env.IDPLANE_TEST_TOOLS_PENDING
  if (!pending || !existsSync(pending)) return
  console.warn(`${suite}: waiting for the test tools being installed (${pending})`)
  const deadline = Date.now() + TOOL_INSTALLATION_WAIT_MS
  const sleeper = new Int32Array(new SharedArrayBuffer(4))
  while (existsSync(pending) && Date.now() < deadline) Atomics.wait(sleeper, 0, 0, 1_000)
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
