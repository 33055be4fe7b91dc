/**
 * Bulk issuance benchmark (issue 14): upload and validation of BENCH_BULK_ROWS rows (default 10,000; target under
 * 3 s) repeated BENCH_BULK_UPLOADS times, then the execution throughput of BENCH_BULK_EXEC_ROWS rows (default 200)
 * with the organization's real agent: rows per minute to the agent and the mail outbox (rows `sent`), and mails
 * delivered (files of the embedded mailer). The API runs as a real process from dist/ (npm run bench:bulk builds).
 * DATABASE_URL set: the API on that PostgreSQL server (a fresh database); else PGlite.
 * INDY (BENCH_BULK_INDY=0 turns it off): the same execution measure with an INDY template, a credential definition
 * published on the platform ledger through the API; each row is an AnonCreds offer (Issue Credential v2).
 */
import { readdirSync } from 'node:fs'
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { freshDatabase, type FreshDatabase } from '../test/helpers/database'
import {
  type ApiProcess,
  call,
  expectJson,
  positiveIntEnv,
  publishIndyDefinition,
  signUp,
  startApiProcess,
} from './api-harness'

const ROWS = positiveIntEnv('BENCH_BULK_ROWS', 10_000)
const UPLOADS = positiveIntEnv('BENCH_BULK_UPLOADS', 3)
const EXEC_ROWS = positiveIntEnv('BENCH_BULK_EXEC_ROWS', 200)
const INDY = process.env.BENCH_BULK_INDY !== '0'
const BOUNDARY = 'bench-bulk-boundary'

const ATTRIBUTES = [
  { attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true, maxLength: 100 },
  { attributeName: 'age', displayName: 'Age', schemaDataType: 'integer', isRequired: true, minimum: 0 },
  { attributeName: 'member', displayName: 'Member', schemaDataType: 'boolean', isRequired: false },
  { attributeName: 'since', displayName: 'Since', schemaDataType: 'date', isRequired: false },
]

function csvOf(rows: number, tag: string): Buffer {
  const lines = ['email,name,age,member,since']
  for (let index = 0; index < rows; index++) {
    lines.push(
      `r${index}-${tag}@example.test,"Holder ${index}, Jr",${20 + (index % 60)},${index % 2 === 0},2020-01-${String((index % 28) + 1).padStart(2, '0')}`,
    )
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`)
}

function indyCsvOf(rows: number, tag: string): Buffer {
  const lines = ['email,name,age']
  for (let index = 0; index < rows; index++)
    lines.push(`r${index}-${tag}@example.test,"Holder ${index}, Jr",${20 + (index % 60)}`)
  return Buffer.from(`${lines.join('\r\n')}\r\n`)
}

function uploadFile(
  api: ApiProcess,
  token: string,
  orgId: string,
  templateId: string,
  file: Buffer,
  schemaType: 'W3C' | 'INDY' = 'W3C',
) {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: api.port,
        method: 'POST',
        path: `/v1/orgs/${orgId}/bulk/upload?schemaType=${schemaType}&templateId=${templateId}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

function mailFiles(dataDir: string, tag: string): number {
  try {
    return readdirSync(path.join(dataDir, 'mail')).filter((name) => name.includes(tag)).length
  } catch {
    return 0
  }
}

interface Session {
  api: ApiProcess
  http: HttpAgent
  token: string
  orgId: string
}

/**
 * Uploads EXEC_ROWS rows of the template and executes them: ms until the request is `completed` (every row offered
 * by the agent and its mail in the outbox) and until every mail file is written.
 */
async function execution(
  session: Session,
  schemaType: 'W3C' | 'INDY',
  templateId: string,
): Promise<{ sentAtMs: number; mailedAtMs: number; mailed: number }> {
  const { api, http, token, orgId } = session
  const tag = `x${Date.now()}`
  const file = schemaType === 'W3C' ? csvOf(EXEC_ROWS, tag) : indyCsvOf(EXEC_ROWS, tag)
  const uploaded = await uploadFile(api, token, orgId, templateId, file, schemaType)
  if (uploaded.status !== 201) throw new Error(`Upload answered ${uploaded.status}: ${uploaded.body.slice(0, 300)}`)
  const requestId = (JSON.parse(uploaded.body) as { data: { requestId: string } }).data.requestId
  const started = performance.now()
  await expectJson(
    call(http, api.port, 'POST', `/v1/orgs/${orgId}/${requestId}/bulk`, { body: {}, token }),
    201,
    'execute',
  )
  let sentAtMs = 0
  for (;;) {
    const progress = await expectJson<{ status: string; counts: Record<string, number> }>(
      call(http, api.port, 'GET', `/v1/orgs/${orgId}/bulk/${requestId}?pageSize=1`, { token }),
      200,
      'progress',
    )
    if (progress.status === 'completed') {
      if (progress.counts.failed > 0) console.log(`${schemaType}: failed rows: ${progress.counts.failed}`)
      sentAtMs = performance.now() - started
      break
    }
    if (performance.now() - started > 30 * 60_000) throw new Error('Execution did not finish in 30 min')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  while (mailFiles(api.dataDir, tag) < EXEC_ROWS && performance.now() - started < 40 * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { sentAtMs, mailedAtMs: performance.now() - started, mailed: mailFiles(api.dataDir, tag) }
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL
  const database: FreshDatabase | undefined = serverUrl ? await freshDatabase('postgres', serverUrl) : undefined
  const http = new HttpAgent({ keepAlive: true })
  let api: ApiProcess | undefined
  try {
    api = await startApiProcess(process.execPath, {
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
      BULK_MAX_ROWS: String(Math.max(ROWS, EXEC_ROWS)),
      BULK_MAX_FILE_BYTES: String(64 * 1024 * 1024),
    })
    const { token, orgId } = await signUp(api, http)
    await expectJson(
      call(http, api.port, 'POST', `/v1/orgs/${orgId}/agents/spinup`, { body: { label: 'Bench bulk' }, token }),
      201,
      'spin-up',
    )
    const schema = await expectJson<{ id: string }>(
      call(http, api.port, 'POST', `/v1/orgs/${orgId}/schemas`, {
        body: {
          type: 'JSON',
          schemaPayload: { schemaName: 'Bench member', schemaType: 'NO_LEDGER', attributes: ATTRIBUTES },
        },
        token,
      }),
      201,
      'schema',
    )
    const uploadMs: number[] = []
    for (let run = 0; run < UPLOADS; run++) {
      const file = csvOf(ROWS, `u${run}`)
      const started = performance.now()
      const res = await uploadFile(api, token, orgId, schema.id, file)
      uploadMs.push(performance.now() - started)
      if (res.status !== 201) throw new Error(`Upload answered ${res.status}: ${res.body.slice(0, 300)}`)
      const summary = (JSON.parse(res.body) as { data: { rows: number; valid: number } }).data
      if (summary.valid !== ROWS) throw new Error(`Upload found ${summary.valid} valid rows of ${ROWS}`)
      console.log(
        `upload ${run + 1}: ${ROWS} rows, ${(file.length / 1024).toFixed(0)} KiB in ${uploadMs[run].toFixed(0)} ms`,
      )
    }

    const deadline = Date.now() + 180_000
    for (;;) {
      const health = await expectJson<{ status: string }>(
        call(http, api.port, 'GET', `/v1/orgs/${orgId}/agents/health`, { token }),
        200,
        'health',
      )
      if (health.status === 'DID_CREATED') break
      if (Date.now() > deadline) throw new Error(`Agent not ready: ${JSON.stringify(health)}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    const session: Session = { api, http, token, orgId }
    const w3c = await execution(session, 'W3C', schema.id)
    const indy = INDY
      ? await execution(session, 'INDY', (await publishIndyDefinition(http, api.port, token, orgId)).id)
      : undefined
    const perMinute = (rows: number, ms: number) => Math.round((rows / ms) * 60_000)
    const sorted = [...uploadMs].sort((a, b) => a - b)
    console.log(
      JSON.stringify({
        at: new Date().toISOString(),
        load: loadavg()[0].toFixed(1),
        database: database ? 'postgres' : 'pglite',
        queue: process.env.AMQP_URL ? 'rabbitmq' : 'embedded',
        uploadRows: ROWS,
        uploadMsMedian: Math.round(sorted[Math.floor(sorted.length / 2)]),
        uploadMsMax: Math.round(sorted.at(-1) ?? 0),
        executedRows: EXEC_ROWS,
        rowsPerMinuteToAgentAndOutbox: perMinute(EXEC_ROWS, w3c.sentAtMs),
        rowsPerMinuteMailed: perMinute(w3c.mailed, w3c.mailedAtMs),
        ...(indy
          ? {
              indyRowsPerMinuteToAgentAndOutbox: perMinute(EXEC_ROWS, indy.sentAtMs),
              indyRowsPerMinuteMailed: perMinute(indy.mailed, indy.mailedAtMs),
            }
          : {}),
      }),
    )
  } finally {
    await api?.stop()
    await database?.drop()
    http.destroy()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
