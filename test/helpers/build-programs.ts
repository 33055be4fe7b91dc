import { execFileSync } from 'node:child_process'
import path from 'node:path'

const ROOT = path.resolve(__dirname, '../..')

/**
 * Compiles the programs into dist/ (scripts/build.mjs without the web console), for a suite that starts an agent or an
 * API from dist/ and may run alone. Safe beside suites already running programs from dist/: the build replaces each
 * changed file whole. The console is built by `make test` and by the suites about it.
 */
export function buildPrograms(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--no-console'], { cwd: ROOT, stdio: 'ignore' })
}
