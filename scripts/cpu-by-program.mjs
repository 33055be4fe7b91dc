// Where a machine's CPU goes while something runs (a `.ci/run`, a benchmark): every 2 s it reads each process's CPU
// from /proc/<pid>/stat, and when it stops (SIGINT or SIGTERM, or once the file named by --until exists) it prints the
// CPU each kind of program used meanwhile. Linux only. CPU a process used before the first reading is not counted, nor
// what a process used after the last reading before it ended (processes that live under 2 s are mostly missed).
//
//   node scripts/cpu-by-program.mjs --until /tmp/ci.done > /tmp/cpu-by-program.txt &
import { existsSync, readdirSync, readFileSync } from 'node:fs'

const INTERVAL_MS = 2000
const TICKS_PER_SECOND = 100
const untilIndex = process.argv.indexOf('--until')
const untilFile = untilIndex > 0 ? process.argv[untilIndex + 1] : undefined

/** Kinds of program, first match wins; anything else is named by the start of its command line. */
const KINDS = [
  ['jest worker', /jest-worker/],
  // The build's programs (dist/) and a suite's own compiled copy (data/test-agent-build-*/, test/helpers/compile-program.ts).
  ['agent', /\/agent\/src\/main\.js/],
  ['API', /\/api\/src\/main\.js/],
  ['operator', /operator\/src\/main\.js/],
  ['jest', /jest/],
  ['PostgreSQL', /^postgres/],
  ['RabbitMQ', /beam\.smp|rabbitmq|erl_child_setup|epmd/],
  ['kube-apiserver', /kube-apiserver/],
  ['etcd', /etcd/],
  ['chromium', /chrom/],
  ['tsc', /typescript\/bin\/tsc|\btsc\b/],
  ['eslint', /eslint/],
  ['prettier', /prettier/],
  ['npm and the build', /\bnpm\b|scripts\/build/],
]

/** pid:starttime -> { first, last, command } in clock ticks. */
const seen = new Map()
let firstPass = true

function sample() {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ticks = Number(fields[11]) + Number(fields[12])
      const key = `${pid}:${fields[19]}`
      const known = seen.get(key)
      if (known) {
        known.last = ticks
        continue
      }
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
      // A process already running at the first reading counts from there; one that started later, from its start.
      seen.set(key, { first: firstPass ? ticks : 0, last: ticks, command })
    } catch {
      // The process ended between the listing and the read.
    }
  }
  firstPass = false
}

function kindOf(command) {
  for (const [name, pattern] of KINDS) if (pattern.test(command)) return name
  return command === '' ? '(no command line)' : command.slice(0, 60)
}

function report() {
  const byKind = new Map()
  let total = 0
  for (const { first, last, command } of seen.values()) {
    const used = last - first
    if (used <= 0) continue
    const kind = kindOf(command)
    const entry = byKind.get(kind) ?? { ticks: 0, processes: 0 }
    entry.ticks += used
    entry.processes += 1
    byKind.set(kind, entry)
    total += used
  }
  console.log('| program | CPU s | share | processes |')
  console.log('| --- | --- | --- | --- |')
  for (const [kind, { ticks, processes }] of [...byKind].sort((a, b) => b[1].ticks - a[1].ticks).slice(0, 25)) {
    const share = ((100 * ticks) / total).toFixed(1)
    console.log(`| ${kind} | ${(ticks / TICKS_PER_SECOND).toFixed(0)} | ${share} % | ${processes} |`)
  }
  console.log(`| all | ${(total / TICKS_PER_SECOND).toFixed(0)} | | ${seen.size} |`)
}

function stop() {
  clearInterval(timer)
  sample()
  report()
  process.exit(0)
}

sample()
const timer = setInterval(() => {
  sample()
  if (untilFile && existsSync(untilFile)) stop()
}, INTERVAL_MS)
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
