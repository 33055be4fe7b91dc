/**
 * What the API benchmarks share: the built API (dist/api/src/main.js) as a child process on 127.0.0.1, plain HTTP
 * calls to it, and a user with an organization made through the real sign-up flow (the code read from the
 * embedded mailer's files).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { freePort } from '../test/helpers/ports'

// The one way to find a port for a process to listen on later (below the ephemeral range); benches import it here.
export { freePort }

const ROOT = path.resolve(__dirname, '..')
const PASSWORD = 'bench-password-42'

export interface Response {
  status: number
  body: string
}

export interface CallOptions {
  body?: unknown
  token?: string
  signal?: AbortSignal
  timeoutMs?: number
}

export function call(agent: Agent, port: number, method: string, route: string, options: CallOptions = {}) {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  const timeoutMs = options.timeoutMs ?? 10_000
  return new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        agent,
        timeout: timeoutMs,
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
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end(payload)
  })
}

/** The envelope's `data` of a response with the expected status; throws with the body otherwise. */
export async function expectJson<T>(response: Promise<Response>, status: number, what: string): Promise<T> {
  const { status: actual, body } = await response
  if (actual !== status) throw new Error(`${what}: expected ${status}, got ${actual}: ${body.slice(0, 300)}`)
  return (JSON.parse(body) as { data: T }).data
}

/**
 * Total user + system CPU time of a process in milliseconds (Linux /proc; clock ticks of 10 ms). With
 * `withReapedChildren`, also its children that have ended and that it has waited for (cutime + cstime).
 */
export function cpuMsOf(pid: number, { withReapedChildren = false } = {}): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  const own = Number(fields[11]) + Number(fields[12])
  return (withReapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) * 10
}

/** The pids of a process's children (Linux /proc); empty when it has none or /proc cannot be read. */
export function childPidsOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

export interface ApiProcess {
  child: ChildProcess
  port: number
  dataDir: string
  /** Stops the API and removes its data dir, unless `keepDataDir` (the caller then reads and removes it). */
  stop(options?: { keepDataDir?: boolean }): Promise<void>
}

/**
 * The API on `node` with `env` added to a private data dir (a new one, or `dataDir` prepared by the caller, e.g. with
 * users already in its database) and a free port; resolves once it is ready. `nodeArgs` go before the script (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/api-prof` to profile the API).
 */
export async function startApiProcess(
  node: string,
  env: Record<string, string>,
  dataDir = mkdtempSync(path.join(tmpdir(), 'bench-api-')),
  nodeArgs: readonly string[] = [],
): Promise<ApiProcess> {
  const port = await freePort()
  const child = spawn(node, [...nodeArgs, 'dist/api/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      API_GATEWAY_HOST: '127.0.0.1',
      API_GATEWAY_PORT: String(port),
      LOG_LEVEL: 'warn',
      // The bench's agents reach each other on loopback.
      NETWORK_ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_API_STDOUT === '1' ? 'inherit' : 'ignore', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const probe = new Agent({ keepAlive: false })
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API on ${node} exited with ${child.exitCode}`)
    const ready = await call(probe, port, 'GET', '/health/ready').catch(() => undefined)
    if (ready?.status === 200) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`API on ${node} not ready within 180 s (a busy machine starts it slowly)`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    child,
    port,
    dataDir,
    stop: async (options) => {
      if (child.exitCode === null) child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(killer)
      if (!options?.keepDataDir) rmSync(dataDir, { recursive: true, force: true })
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
export async function signUp(api: ApiProcess, agent: Agent): Promise<{ token: string; orgId: string }> {
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

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

/** A positive integer from the environment, or `fallback` when unset. */
export function positiveIntEnv(name: string, fallback: number): number {
  return intEnv(name, fallback, 1, 'a positive integer')
}

/** The integer setting `name`, 0 allowed (e.g. a warm-up that can be turned off). */
export function nonNegativeIntEnv(name: string, fallback: number): number {
  return intEnv(name, fallback, 0, 'an integer of 0 or more')
}

function intEnv(name: string, fallback: number, min: number, what: string): number {
  const raw = process.env[name]
  const value = raw === undefined || raw === '' ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be ${what}`)
  return value
}

/**
 * An INDY schema (`name` text, `age` number) and a credential definition published on the platform ledger through
 * the API, for the benchmarks' INDY modes. Key generation is a job: the definition's record is followed until it is
 * created. @returns its record id and ledger id
 */
export async function publishIndyDefinition(
  agent: Agent,
  port: number,
  token: string,
  orgId: string,
): Promise<{ id: string; credentialDefinitionId: string }> {
  const post = <T>(route: string, body: unknown, what: string) =>
    expectJson<T>(call(agent, port, 'POST', route, { body, token, timeoutMs: 60_000 }), 201, what)
  const schema = await post<{ schemaLedgerId: string }>(
    `/v1/orgs/${orgId}/schemas`,
    {
      type: 'INDY',
      schemaPayload: {
        schemaName: `bench-${Date.now()}`,
        schemaVersion: '1.0',
        attributes: [
          { attributeName: 'name', schemaDataType: 'string', displayName: 'Name', isRequired: true },
          { attributeName: 'age', schemaDataType: 'number', displayName: 'Age', isRequired: true },
        ],
      },
    },
    'INDY schema',
  )
  const definition = await post<{ id: string }>(
    `/v1/orgs/${orgId}/cred-defs`,
    { tag: 'bench', schemaLedgerId: schema.schemaLedgerId, revocable: false },
    'credential definition',
  )
  const deadline = Date.now() + 300_000
  for (;;) {
    const record = await expectJson<{ status: string; credentialDefinitionId: string | null; error?: string | null }>(
      call(agent, port, 'GET', `/v1/orgs/${orgId}/cred-defs/${definition.id}`, { token, timeoutMs: 60_000 }),
      200,
      'credential definition',
    )
    if (record.status === 'created' && record.credentialDefinitionId)
      return { id: definition.id, credentialDefinitionId: record.credentialDefinitionId }
    if (record.status === 'failed') throw new Error(`Credential definition failed: ${record.error ?? ''}`)
    if (Date.now() > deadline) throw new Error('Credential definition not created within 5 minutes')
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
