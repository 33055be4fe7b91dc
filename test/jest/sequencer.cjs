// Jest's own order (failed first, then the ones it has no timing for, then slowest first), with two additions for CI's clean checkout:
// - Jest keeps its timings in a cache named after the checkout's path, so a fresh clone has none and jest orders by
//   file size, which can start a two-minute suite last and leave the other workers idle at the end. Where jest has no
//   timing of its own, the one in test/jest/durations.json (seconds, from a recorded run) is used.
//   `JEST_RECORD_DURATIONS=1 npx jest ...` rewrites that file from the run's own timings.
// - The suites that need an outside tool (chromium, helm, kube-apiserver) go last while `.ci/run` still installs the
//   tools (the file named by IDPLANE_TEST_TOOLS_PENDING exists): such a suite waits for the installation before it
//   decides to run (test/helpers/test-tools.ts), and run early it would hold a worker idle for minutes.
const { existsSync, readFileSync, writeFileSync } = require('node:fs')
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

const ROOT = path.resolve(__dirname, '../..')
const NEEDS_A_TOOL = /\b(requireTools|hasBrowser|kubeServerKinds|describeOnKubeServers)\(/

/** Every k8s suite may start the real kube-apiserver (through test/k8s/support), and others say so in their code. */
function needsATool(file) {
  if (/[\\/]test[\\/]k8s[\\/]/.test(file)) return true
  try {
    return NEEDS_A_TOOL.test(readFileSync(file, 'utf8'))
  } catch {
    return false
  }
}

/** JEST_DURATIONS_FILE names another file (the sequencer's own test). */
const durationsFile = () => process.env.JEST_DURATIONS_FILE || path.join(__dirname, 'durations.json')

function readDurations() {
  try {
    return JSON.parse(readFileSync(durationsFile(), 'utf8'))
  } catch {
    return {}
  }
}

const relative = (file) => path.relative(ROOT, file).split(path.sep).join('/')

class CiSequencer extends Sequencer {
  recorded = readDurations()

  time(test) {
    const own = super.time(test)
    if (own != null) return own
    const seconds = this.recorded[relative(test.path)]
    return seconds == null ? undefined : seconds * 1000
  }

  sort(tests) {
    const ordered = super.sort(tests)
    const pending = process.env.IDPLANE_TEST_TOOLS_PENDING
    if (!pending || !existsSync(pending)) return ordered
    const first = []
    const last = []
    for (const test of ordered) (needsATool(test.path) ? last : first).push(test)
    return [...first, ...last]
  }

  cacheResults(tests, results) {
    super.cacheResults(tests, results)
    if (process.env.JEST_RECORD_DURATIONS !== '1') return
    const durations = readDurations()
    for (const result of results.testResults) {
      if (result.skipped || result.numFailingTests > 0) continue
      const ms = result.perfStats.runtime ?? result.perfStats.end - result.perfStats.start
      durations[relative(result.testFilePath)] = Math.round(ms / 100) / 10
    }
    const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)))
    writeFileSync(durationsFile(), JSON.stringify(sorted, null, 2) + '\n')
  }
}

module.exports = CiSequencer
