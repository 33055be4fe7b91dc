/**
 * API read benchmark: the built API (dist/api/src/main.js) on PostgreSQL, one user and one organization created
 * through the real sign-up flow, then an open-loop load of authenticated `GET /v1/orgs/:orgId` at a fixed rate.
 *
 *   npm run bench:api-read         (builds dist/ first, then runs this file)
 *   BENCH_NODES=/usr/bin/node,$(bash scripts/ensure-node.sh)/node npm run bench:api-read   (one API run per binary)
 *   BENCH_RATE=500 BENCH_SECONDS=20 BENCH_WARMUP_SECONDS=3 BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres
 *
 * Open loop: request i is due at start + i / rate whatever happened to the earlier ones, and its latency is
 * counted from that due time, so a stalled server shows up in the percentiles instead of slowing the sender.
 * Everything is on 127.0.0.1 and bounded: at most rate x seconds requests, at most BENCH_MAX_SOCKETS sockets,
 * each request aborted after BENCH_REQUEST_TIMEOUT_MS (counted from when it was due, so requests queued for a
 * socket time out too) and every run stops BENCH_REQUEST_TIMEOUT_MS after its last request was due. The load generator is this process (the same for every
 * API binary); the API runs on each binary of BENCH_NODES in turn, each time on a fresh database.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { type AddressInfo, createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { freshDatabase } from '../test/helpers/database'

const RATE = intEnv('BENCH_RATE', 500)
const SECONDS = intEnv('BENCH_SECONDS', 20)
const WARMUP_SECONDS = intEnv('BENCH_WARMUP_SECONDS', 3)
const MAX_SOCKETS = intEnv('BENCH_MAX_SOCKETS', 256)
const REQUEST_TIMEOUT_MS = intEnv('BENCH_REQUEST_TIMEOUT_MS', 10_000)
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const NODES = (process.env.BENCH_NODES ?? process.execPath).split(',').filter(Boolean)
const ROOT = path.resolve(__dirname, '..')
const PASSWORD = 'bench-password-42'

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  const value = raw === undefined || raw === '' ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`)
  return value
}

interface Response {
  status: number
  body: string
}

interface Outcome {
  latencyMs: number
  ok: boolean
  error?: string
}

function call(
  agent: Agent,
  port: number,
  method: string,
  route: string,
  options: { body?: unknown; token?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        signal: options.signal,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`timed out after ${REQUEST_TIMEOUT_MS} ms`)))
    req.on('error', reject)
    req.end(payload)
  })
}

async function expectJson<T>(response: Promise<Response>, status: number, what: string): Promise<T> {
  const { status: actual, body } = await response
  if (actual !== status) throw new Error(`${what}: expected ${status}, got ${actual}: ${body.slice(0, 300)}`)
  return (JSON.parse(body) as { data: T }).data
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Total user + system CPU time of a process in milliseconds (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}

interface ApiProcess {
  child: ChildProcess
  port: number
  dataDir: string
  stop(): Promise<void>
}

async function startApi(node: string, databaseUrl: string): Promise<ApiProcess> {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-api-'))
  const child = spawn(node, ['dist/api/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      API_GATEWAY_HOST: '127.0.0.1',
      API_GATEWAY_PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const probe = new Agent({ keepAlive: false })
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API on ${node} exited with ${child.exitCode}`)
    const ready = await call(probe, port, 'GET', '/health/ready').catch(() => undefined)
    if (ready?.status === 200) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`API on ${node} not ready within 60 s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    child,
    port,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(killer)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The code in the newest mail file the embedded mailer wrote to `dir` (`<DATA_DIR>/mail/<address>/`). */
function latestVerificationCode(dir: string): string | undefined {
  let files: string[]
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
  } catch {
    return undefined
  }
  const latest = files.at(-1)
  if (latest === undefined) return undefined
  const mail = JSON.parse(readFileSync(path.join(dir, latest), 'utf8')) as { text: string }
  return /verificationCode=(\d+)/.exec(mail.text)?.[1]
}

/** Verification mail, code from the mail file, verify, sign-up, sign-in, create an organization. */
async function signUp(api: ApiProcess, agent: Agent): Promise<{ token: string; orgId: string }> {
  const email = `bench-${process.pid}-${api.port}@example.test`
  await expectJson(call(agent, api.port, 'POST', '/v1/auth/verification-mail', { body: { email } }), 201, 'mail')
  let code: string | undefined
  const deadline = Date.now() + 10_000
  while (code === undefined) {
    code = latestVerificationCode(path.join(api.dataDir, 'mail', email))
    if (code === undefined && Date.now() > deadline) throw new Error('No verification mail within 10 s')
    if (code === undefined) await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const query = new URLSearchParams({ email, verificationCode: code })
  await expectJson(call(agent, api.port, 'GET', `/v1/auth/verify?${query.toString()}`), 200, 'verify')
  const body = { email, firstName: 'Bench', lastName: 'User', password: PASSWORD, isEmailVerified: true }
  await expectJson(call(agent, api.port, 'POST', '/v1/auth/signup', { body }), 201, 'sign-up')
  const signIn = await expectJson<{ access_token: string }>(
    call(agent, api.port, 'POST', '/v1/auth/signin', { body: { email, password: PASSWORD } }),
    200,
    'sign-in',
  )
  const token = signIn.access_token
  const org = await expectJson<{ id: string }>(
    call(agent, api.port, 'POST', '/v1/orgs', { body: { name: 'Bench Org', description: 'benchmark' }, token }),
    201,
    'create organization',
  )
  return { token, orgId: org.id }
}

/** Sends `rate x seconds` requests, each due at its own time, and resolves when every one has answered. */
async function openLoop(
  seconds: number,
  send: () => Promise<boolean>,
): Promise<{ outcomes: Outcome[]; wallMs: number }> {
  const total = RATE * seconds
  const outcomes: Outcome[] = []
  const pending: Promise<void>[] = []
  const start = performance.now()
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    pending.push(
      send().then(
        (ok) => void outcomes.push({ latencyMs: performance.now() - due, ok, ...(ok ? {} : { error: 'status' }) }),
        (error: unknown) =>
          void outcomes.push({ latencyMs: performance.now() - due, ok: false, error: (error as Error).message }),
      ),
    )
  }
  await Promise.all(pending)
  return { outcomes, wallMs: performance.now() - start }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

async function runOn(node: string): Promise<string> {
  const version = await new Promise<string>((resolve, reject) => {
    const child = spawn(node, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', () => resolve(out.trim()))
  })
  const database = await freshDatabase('postgres', SERVER_URL)
  if (database.target.kind !== 'postgres') throw new Error('bench:api-read needs PostgreSQL')
  let api: ApiProcess | undefined
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS })
  try {
    api = await startApi(node, database.target.url)
    const { token, orgId } = await signUp(api, agent)
    const port = api.port
    const send = async () => {
      const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
      return (await call(agent, port, 'GET', `/v1/orgs/${orgId}`, { token, signal })).status === 200
    }
    await openLoop(WARMUP_SECONDS, send)
    const apiPid = api.child.pid ?? 0
    const [apiCpuBefore, ownCpuBefore] = [cpuMsOf(apiPid), process.cpuUsage()]
    const { outcomes, wallMs } = await openLoop(SECONDS, send)
    const apiCpuMs = cpuMsOf(apiPid) - apiCpuBefore
    const own = process.cpuUsage(ownCpuBefore)
    const latencies = outcomes.map((o) => o.latencyMs).sort((a, b) => a - b)
    const failed = outcomes.filter((o) => !o.ok)
    const reasons = [...new Set(failed.map((o) => o.error))].slice(0, 3).join('; ')
    const ok = outcomes.length - failed.length
    const line =
      `| ${version} | ${RATE} | ${((ok / wallMs) * 1000).toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ` +
      `${percentile(latencies, 95).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ` +
      `${latencies[latencies.length - 1]?.toFixed(1)} | ${failed.length}${reasons ? ` (${reasons})` : ''} | ` +
      `${(apiCpuMs / ((SECONDS * RATE) / 1000)).toFixed(2)} | ${((own.user + own.system) / 1000 / ((SECONDS * RATE) / 1000)).toFixed(2)} | ` +
      `${loadavg()[0].toFixed(2)} |`
    console.log(`${node}: ${outcomes.length} requests in ${(wallMs / 1000).toFixed(1)} s`)
    return line
  } finally {
    agent.destroy()
    await api?.stop()
    await database.drop()
  }
}

async function main(): Promise<void> {
  const lines: string[] = []
  for (const node of NODES) lines.push(await runOn(node))
  console.log(`\nGET /v1/orgs/:orgId, open loop, ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up, PostgreSQL`)
  console.log(
    '| node | target req/s | achieved req/s | p50 ms | p95 ms | p99 ms | max ms | errors | API CPU ms/1000 req | generator CPU ms/1000 req | load after |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const line of lines) console.log(line)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
