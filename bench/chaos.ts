/**
 * Chaos run (issue 28): the platform of bench/chaos-platform.ts under a steady mix of exchanges while processes and
 * services fail underneath on a schedule; a table at the end and a non-zero exit when a goal is missed.
 *
 *   npm run chaos                       (builds dist/ first; 20 minutes, every fault)
 *   CHAOS_MINUTES=4 CHAOS_FAULTS=api-a,agent,holder,webhook-500 npm run chaos
 *
 * Settings (environment):
 * - CHAOS_MINUTES (20): how long exchanges are started; the run then waits for the last ones and drains.
 * - CHAOS_WORKERS (2): exchanges in flight at once (the load; one exchange is several API and DIDComm calls).
 * - CHAOS_FAULTS (all): comma-separated subset of api-a, api-b, agent, holder, rabbitmq, postgres, webhook-500,
 *   spread evenly over the run after a warm-up of a tenth of it.
 * - CHAOS_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/test): the PostgreSQL server; a fresh database is made.
 * - CHAOS_AMQP_URL (amqp://guest:guest@127.0.0.1:5672): the broker; queue names get a prefix of the run.
 * - CHAOS_PG_CLUSTER ("<version> main", the version from /etc/postgresql): the cluster `pg_ctlcluster` restarts; it
 *   must serve the port of CHAOS_DATABASE_URL. CHAOS_PG_DOWN_SECONDS (10): how long it stays stopped.
 * - CHAOS_RABBITMQ_NODE (rabbitmqctl's default): the node `rabbitmqctl stop_app` / `start_app` restarts (the
 *   application inside the Erlang node; connections drop, durable queues and persistent messages stay).
 *   CHAOS_RABBITMQ_DOWN_SECONDS (10).
 * - CHAOS_WEBHOOK_DOWN_SECONDS (60): how long the webhook receiver answers 500.
 * - CHAOS_INDY (1): 0 leaves INDY issuance out (its credential definition takes minutes on a loaded machine).
 * - CHAOS_BULK (1): 0 leaves the bulk run out (JSON-LD issuance in its turn; docs/reliability.md, defect 6).
 * - Logs, to find what a failed run did: CHAOS_API_LOGS=<dir> keeps each replica's lines, with its agents', in
 *   `<dir>/api-a.log` and `api-b.log`; BENCH_AGENT_LOGS=<dir> keeps the holder's in `<dir>/holder.log`;
 *   CHAOS_LOG_LEVEL and BENCH_AGENT_LOG_LEVEL (error, warn) set how much they say (info names every queued message);
 *   CHAOS_KEEP_DATABASE=1 keeps the run's database (the API's tables, the agents' schemas) instead of dropping it.
 *
 * Restarting PostgreSQL or RabbitMQ restarts them for everything on the machine: on a shared machine point the run
 * at a cluster and a node of its own (docs/reliability.md shows how).
 */
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { positiveIntEnv } from './api-harness'
import { EXCHANGE_KINDS, type ExchangeKind, percentile, Platform } from './chaos-platform'

const FAULTS = ['api-a', 'api-b', 'agent', 'holder', 'rabbitmq', 'postgres', 'webhook-500'] as const
type Fault = (typeof FAULTS)[number]

const MINUTES = Number(process.env.CHAOS_MINUTES ?? '20')
const WORKERS = positiveIntEnv('CHAOS_WORKERS', 2)
const DATABASE_URL = process.env.CHAOS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test'
const AMQP_URL = process.env.CHAOS_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672'
const PG_DOWN_MS = positiveIntEnv('CHAOS_PG_DOWN_SECONDS', 10) * 1000
const RABBIT_DOWN_MS = positiveIntEnv('CHAOS_RABBITMQ_DOWN_SECONDS', 10) * 1000
const WEBHOOK_DOWN_MS = positiveIntEnv('CHAOS_WEBHOOK_DOWN_SECONDS', 60) * 1000
const INDY = process.env.CHAOS_INDY !== '0'
const BULK = process.env.CHAOS_BULK !== '0'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The exchange mix, in turn: every kind, JSON-LD issuance and connections twice as often, a bulk run now and then. */
const MIX: ExchangeKind[] = ['connection', 'jsonld', 'proof', 'oob-email', 'indy', 'jsonld', 'connection', 'bulk']

interface Window {
  fault: Fault
  start: number
  end: number
  note?: string
}

function log(line: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
}

function parseFaults(): Fault[] {
  const raw = process.env.CHAOS_FAULTS
  if (!raw) return [...FAULTS]
  const list = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  for (const item of list) if (!(FAULTS as readonly string[]).includes(item)) throw new Error(`Unknown fault ${item}`)
  return list as Fault[]
}

function pgCluster(): [string, string] {
  const raw = process.env.CHAOS_PG_CLUSTER ?? `${readdirSync('/etc/postgresql')[0]} main`
  const [version, name] = raw.split(/\s+/)
  // Restarting a cluster the run does not use would only disturb others: check the port first.
  const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' })
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .find((fields) => fields[0] === version && fields[1] === name)
  const port = new URL(DATABASE_URL).port || '5432'
  if (!line || line[2] !== port) throw new Error(`Cluster "${raw}" does not serve port ${port} of CHAOS_DATABASE_URL`)
  return [version, name]
}

function rabbitmqctl(...args: string[]): void {
  const node = process.env.CHAOS_RABBITMQ_NODE
  execFileSync('rabbitmqctl', [...(node ? ['-n', node] : []), ...args], { stdio: 'ignore', timeout: 120_000 })
}

async function untilReady(platform: Platform, deadlineMs = 240_000): Promise<void> {
  const deadline = Date.now() + deadlineMs
  for (;;) {
    const states = await Promise.all(
      platform.replicas.map((replica) =>
        fetch(`http://127.0.0.1:${replica.port}/health/ready`).then(
          (res) => res.status === 200,
          () => false,
        ),
      ),
    )
    if (states.every(Boolean)) return
    if (Date.now() > deadline) throw new Error('The replicas did not become ready again')
    await sleep(500)
  }
}

async function inject(platform: Platform, fault: Fault): Promise<Window> {
  const start = performance.now()
  let note: string | undefined
  switch (fault) {
    case 'api-a':
    case 'api-b': {
      const replica = platform.replicas[fault === 'api-a' ? 0 : 1]
      await platform.killReplica(replica)
      // A pod is back in seconds: the replica is down for as long as its restart takes, plus 3 s.
      await sleep(3000)
      await platform.restartReplica(replica)
      break
    }
    case 'agent': {
      const pid = platform.orgAgentPid()
      if (pid === undefined) {
        note = 'no organization agent was listening'
        break
      }
      process.kill(pid, 'SIGKILL')
      const deadline = Date.now() + 180_000
      for (;;) {
        const now = platform.orgAgentPid()
        const answering = await fetch(`http://127.0.0.1:${platform.orgAgentAdminPort}/agent`).then(
          (res) => res.status === 200,
          () => false,
        )
        if (now !== undefined && now !== pid && answering) break
        if (Date.now() > deadline) {
          note = 'the organization agent did not come back within 180 s'
          break
        }
        await sleep(500)
      }
      break
    }
    case 'holder':
      await platform.killHolder()
      await sleep(3000)
      await platform.startHolder()
      break
    case 'rabbitmq':
      rabbitmqctl('stop_app')
      await sleep(RABBIT_DOWN_MS)
      rabbitmqctl('start_app')
      await untilReady(platform)
      break
    case 'postgres': {
      const [version, name] = pgCluster()
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'stop', '-m', 'fast'], {
        stdio: 'ignore',
      })
      await sleep(PG_DOWN_MS)
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start'], { stdio: 'ignore' })
      await untilReady(platform)
      break
    }
    case 'webhook-500':
      platform.webhook.fail(500)
      await sleep(WEBHOOK_DOWN_MS)
      platform.webhook.recover()
      break
  }
  return { fault, start, end: performance.now(), ...(note ? { note } : {}) }
}

function table(headers: string[], rows: (string | number)[][]): void {
  console.log(`\n| ${headers.join(' | ')} |`)
  console.log(`|${headers.map(() => '---').join('|')}|`)
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)
}

async function main(): Promise<void> {
  const faults = parseFaults()
  if (faults.includes('postgres')) pgCluster()
  const runMs = MINUTES * 60_000
  log(
    `chaos: ${MINUTES} min, ${WORKERS} exchanges in flight, faults ${faults.join(', ')}; PostgreSQL ${new URL(DATABASE_URL).host}, ` +
      `RabbitMQ ${new URL(AMQP_URL).host}; load ${loadavg()[0].toFixed(1)}`,
  )
  const platform = new Platform({ databaseUrl: DATABASE_URL, amqpUrl: AMQP_URL, indy: INDY })
  platform.stopOnSignals(log)
  let failedGoals: string[] = []
  try {
    await platform.start(log)
    platform.calls.length = 0
    const started = performance.now()
    const windows: Window[] = []

    // The load: each worker runs exchanges one after the other, kinds in turn.
    let turn = 0
    const workers = Array.from({ length: WORKERS }, async () => {
      while (performance.now() - started < runMs) {
        let kind = MIX[turn++ % MIX.length]
        if (kind === 'indy' && !INDY) kind = 'jsonld'
        if (kind === 'bulk' && !BULK) kind = 'jsonld'
        const exchange = await platform.run(kind)
        if (exchange.outcome !== 'done') log(`exchange ${exchange.id} (${kind}) failed: ${exchange.reason}`)
      }
    })

    // The faults, evenly spread after a warm-up of a tenth of the run.
    const schedule = (async () => {
      const warmUp = runMs / 10
      const gap = (runMs - warmUp) / faults.length
      for (const [index, fault] of faults.entries()) {
        const at = warmUp + index * gap
        const wait = at - (performance.now() - started)
        if (wait > 0) await sleep(wait)
        log(`fault: ${fault}`)
        try {
          const window = await inject(platform, fault)
          windows.push(window)
          log(
            `fault ${fault} over after ${((window.end - window.start) / 1000).toFixed(1)} s${window.note ? ` (${window.note})` : ''}`,
          )
        } catch (error) {
          windows.push({ fault, start: performance.now(), end: performance.now(), note: (error as Error).message })
          log(`fault ${fault} could not be injected: ${(error as Error).message}`)
        }
      }
    })()
    await schedule
    await Promise.all(workers)
    log(`load over: ${platform.exchanges.length} exchanges; draining`)

    // Drain: what was published must be delivered and sent; at most 5 minutes.
    const drainDeadline = Date.now() + 300_000
    for (;;) {
      const pending = (await platform.deliveries()).filter((row) => row.status === 'pending').length
      const mails = (await platform.outbox()).filter((row) => row.status === 'pending').length
      if ((pending === 0 && mails === 0) || Date.now() > drainDeadline) break
      await sleep(2000)
    }
    await sleep(5000)

    // ------------------------------------------------------------ accounting
    const records = await platform.recordStates()
    const byId = new Map(records.map((record) => [`${record.type}:${record.id}`, record]))
    const deliveries = await platform.deliveries()
    const outbox = await platform.outbox()
    const dbBytes = await platform.databaseBytes()
    const accepted = platform.webhook.accepted('/chaos-hook')
    const received = new Map<string, number>()
    for (const request of accepted) received.set(`${request.eventId}`, (received.get(`${request.eventId}`) ?? 0) + 1)
    const badSignatures = platform.webhook.badSignatures().length
    const mailsByMessageId = new Map<string, number>()
    for (const mail of platform.smtp.messages) {
      const id = mail.headers['message-id'] ?? `(none) ${mail.to.join(',')} ${mail.subject}`
      mailsByMessageId.set(id, (mailsByMessageId.get(id) ?? 0) + 1)
    }
    await platform.stop()
    const orphans = platform.orphans()

    const apiKills = windows.filter((window) => window.fault === 'api-a' || window.fault === 'api-b').length

    // Exchanges.
    const stuck: string[] = []
    const exchangeRows = EXCHANGE_KINDS.map((kind) => {
      const list = platform.exchanges.filter((exchange) => exchange.kind === kind)
      let open = 0
      for (const exchange of list) {
        const openRecords = exchange.records.filter((ref) => {
          const record = byId.get(`${ref.type}:${ref.id}`)
          return record === undefined || Platform.isOpen(ref.type, record.api)
        })
        if (openRecords.length > 0) {
          open++
          stuck.push(
            `#${exchange.id} ${kind}: ${openRecords.map((ref) => `${ref.type} ${ref.id} ${byId.get(`${ref.type}:${ref.id}`)?.api ?? 'missing'}`).join(', ')}${exchange.reason ? ` (driver: ${exchange.reason})` : ''}`,
          )
        }
      }
      const done = list.filter((exchange) => exchange.outcome === 'done').length
      const failed = list.filter((exchange) => exchange.outcome === 'failed')
      const abandoned =
        failed.length - failed.filter((exchange) => stuck.some((line) => line.startsWith(`#${exchange.id} `))).length
      return [kind, list.length, done, abandoned, open]
    })
    table(['exchange', 'started', 'done', 'ended otherwise (abandoned, with a reason)', 'stuck'], exchangeRows)
    const reasons = new Map<string, number>()
    for (const exchange of platform.exchanges.filter((item) => item.outcome === 'failed')) {
      const reason = `${exchange.kind}: ${exchange.reason ?? ''}`.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
    }
    if (reasons.size > 0)
      table(
        ['driver gave up (reason)', 'count'],
        [...reasons].map(([reason, count]) => [reason, count]),
      )
    if (stuck.length > 0) console.log(`\nstuck:\n${stuck.map((line) => `- ${line}`).join('\n')}`)
    const openOther = records.filter(
      (record) =>
        Platform.isOpen(record.type, record.api) &&
        !platform.exchanges.some((exchange) => exchange.records.some((ref) => ref.id === record.id)),
    )

    // Webhooks.
    const rowIds = new Set(deliveries.map((row) => row.event_id))
    const delivered = [...rowIds].filter((id) => received.has(id)).length
    const duplicated = [...received.values()].filter((count) => count > 1).length
    const dead = deliveries.filter((row) => row.status === 'dead').length
    const pendingRows = deliveries.filter((row) => row.status === 'pending').length
    const lostWebhooks = deliveries.filter((row) => row.status !== 'dead' && !received.has(row.event_id)).length
    const unknown = [...received.keys()].filter((id) => !rowIds.has(id)).length
    table(
      [
        'webhook events expected (rows)',
        'delivered',
        'duplicated',
        'dead',
        'still pending',
        'lost',
        'unknown ids',
        'bad signatures',
      ],
      [[rowIds.size, delivered, duplicated, dead, pendingRows, lostWebhooks, unknown, badSignatures]],
    )

    // Mails.
    const expectedAddresses = platform.exchanges.flatMap((exchange) => exchange.mailsExpected)
    const missingMail = expectedAddresses.filter(
      (address) => !platform.smtp.messages.some((mail) => mail.to.includes(address.toLowerCase())),
    )
    const twice = [...mailsByMessageId.values()].filter((count) => count > 1).length
    const deadMails = outbox.filter((row) => row.status === 'dead').length
    table(
      [
        'mails expected (outbox rows)',
        'by the driver',
        'sent (distinct Message-IDs)',
        'sent twice',
        'dead',
        'driver addresses without mail',
      ],
      [[outbox.length, expectedAddresses.length, mailsByMessageId.size, twice, deadMails, missingMail.length]],
    )

    // Records against the agent's.
    const differing = records.filter((record) => record.agent !== record.api)
    table(
      ['records (API)', 'state differs from the agent', 'open, made by retried requests'],
      [[records.length, differing.length, openOther.length]],
    )
    if (differing.length > 0)
      console.log(
        differing
          .slice(0, 20)
          .map((record) => `- ${record.type} ${record.id}: API ${record.api}, agent ${record.agent ?? 'missing'}`)
          .join('\n'),
      )
    table(
      ['processes started', 'orphans'],
      [[platform.processes.size, orphans.map((orphan) => `${orphan.name} ${orphan.pid}`).join(', ') || 0]],
    )

    // 5xx by route, and latency inside and outside the fault windows.
    const during = (call: { startedAt: number; ms: number }) =>
      windows.some((window) => call.startedAt <= window.end + 5000 && call.startedAt + call.ms >= window.start)
    const faultsOf = (call: { startedAt: number; ms: number }) =>
      windows
        .filter((window) => call.startedAt <= window.end + 5000 && call.startedAt + call.ms >= window.start)
        .map((window) => window.fault)
    const fiveHundreds = new Map<
      string,
      { count: number; during: number; withRetryAfter: number; faults: Set<string>; message: string }
    >()
    let badFiveHundreds = 0
    for (const call of platform.calls.filter((item) => item.status >= 500 || item.status === 0)) {
      const kind = call.error?.startsWith('proxy')
        ? `${call.status} (${call.error})`
        : call.status === 0
          ? `no answer (${call.error})`
          : String(call.status)
      const key = `${call.route} | ${kind}`
      const entry = fiveHundreds.get(key) ?? {
        count: 0,
        during: 0,
        withRetryAfter: 0,
        faults: new Set<string>(),
        message: call.message ?? '',
      }
      entry.count++
      for (const fault of faultsOf(call)) entry.faults.add(fault)
      if (during(call)) entry.during++
      if (call.retryAfter) entry.withRetryAfter++
      fiveHundreds.set(key, entry)
      const fromApi = call.status >= 500 && !call.error?.startsWith('proxy')
      if (fromApi && !(call.status === 503 && call.retryAfter && during(call))) badFiveHundreds++
    }
    if (fiveHundreds.size > 0)
      table(
        ['route', 'answer', 'count', 'during a fault', 'with Retry-After', 'faults', 'first message'],
        [...fiveHundreds].map(([key, entry]) => [
          ...key.split(' | '),
          entry.count,
          entry.during,
          entry.withRetryAfter,
          [...entry.faults].join(' ') || '-',
          entry.message.replace(/\|/g, '/'),
        ]),
      )
    else console.log('\nno 5xx answer')
    const routes = [...new Set(platform.calls.map((call) => call.route))].sort()
    table(
      [
        'route',
        'calls',
        'p50 ms (outside)',
        'p99 ms (outside)',
        'calls during faults',
        'p50 ms (during)',
        'p99 ms (during)',
      ],
      routes.map((route) => {
        const list = platform.calls.filter((call) => call.route === route && call.status > 0)
        const inside = list
          .filter(during)
          .map((call) => call.ms)
          .sort((a, b) => a - b)
        const outside = list
          .filter((call) => !during(call))
          .map((call) => call.ms)
          .sort((a, b) => a - b)
        const f = (values: number[], p: number) => (values.length ? percentile(values, p).toFixed(0) : '-')
        return [route, list.length, f(outside, 50), f(outside, 99), inside.length, f(inside, 50), f(inside, 99)]
      }),
    )
    table(
      ['fault', 'seconds until recovered', 'note'],
      windows.map((window) => [window.fault, ((window.end - window.start) / 1000).toFixed(1), window.note ?? '']),
    )
    const exchangesDone = platform.exchanges.filter((exchange) => exchange.outcome === 'done').length
    console.log(
      `\nproxy: ${platform.proxyStats.forwarded} forwarded, ${platform.proxyStats.failedOver} failed over to the other replica, ` +
        `${platform.proxyStats.cutMidRequest} cut mid-request (replica killed; ${platform.proxyStats.cutRetried} of them ` +
        `GET or HEAD sent again to the other replica); database ${(dbBytes / 1e6).toFixed(1)} MB ` +
        `(${platform.exchanges.length ? (dbBytes / 1e3 / platform.exchanges.length).toFixed(0) : '-'} kB per exchange, schema included); ` +
        `${exchangesDone} exchanges done; load ${loadavg()[0].toFixed(1)}`,
    )

    failedGoals = [
      stuck.length > 0 ? `${stuck.length} exchanges stuck` : '',
      lostWebhooks > 0 ? `${lostWebhooks} webhook events lost` : '',
      dead > 0 ? `${dead} webhook deliveries dead` : '',
      badSignatures > 0 ? `${badSignatures} bad signatures` : '',
      apiKills === 0 && duplicated > 0 ? `${duplicated} webhook duplicates without any API kill` : '',
      missingMail.length > 0 ? `${missingMail.length} mails missing` : '',
      twice > apiKills ? `${twice} mails sent twice, more than one per API kill (${apiKills})` : '',
      differing.length > 0 ? `${differing.length} records differ from the agent's` : '',
      orphans.length > 0 ? `${orphans.length} orphan processes` : '',
      badFiveHundreds > 0 ? `${badFiveHundreds} 5xx answers other than 503 with Retry-After during a fault` : '',
    ].filter(Boolean)
    console.log(failedGoals.length === 0 ? '\ngoals: met' : `\ngoals: NOT met: ${failedGoals.join('; ')}`)
  } finally {
    await platform.stop().catch(() => undefined)
    await platform.cleanUp()
  }
  process.exit(failedGoals.length === 0 ? 0 : 1)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(2)
})
