import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * A stand-in for the agent program (agent/src/main.ts) that the process runtime spawns through
 * AGENT_ENTRYPOINT. `healthy` serves GET /agent (200), POST /dids (Bearer AGENT_API_KEY; `{ method, domain?,
 * seed? }` → 201 `{ data: { did } }`, the real admin API's shape) and GET /env (the AGENT_* variables it got,
 * so tests can read the event token), on FAKE_AGENT_HOST (default 127.0.0.1); `never-ready` answers GET /agent with 503 forever; `crash` exits at once;
 * `slow-did` is `healthy` but holds each POST /dids answer for 3 s (GET /did-requests counts those received).
 * Like the real agent, GET /agent with a wrong `Authorization` key is a 401. Started as the process runtime starts
 * agents (AGENT_SPARE=1), it takes its settings from the launch line on its standard input first. After that it ignores
 * its standard input, so it outlives a killed API (an agent that does not watch its supervisor), except `supervised`: `healthy` that
 * takes 3 s to listen, as a real agent takes seconds to start, and exits when its standard input closes, as the
 * real agent does with AGENT_EXIT_ON_STDIN_CLOSE.
 */
export type FakeAgentMode = 'healthy' | 'never-ready' | 'crash' | 'slow-did' | 'supervised'

const SOURCE = (mode: FakeAgentMode) => `
const http = require('node:http')
const { createHash, randomBytes } = require('node:crypto')
const mode = ${JSON.stringify(mode)}
if (mode === 'crash') { console.error('fake agent: crashing on purpose'); process.exit(3) }
// Started as the process runtime starts agents: the settings come as one JSON line on standard input.
if (process.env.AGENT_SPARE === '1') {
  let line = ''
  const onData = (chunk) => {
    line += chunk
    const end = line.indexOf('\\n')
    if (end === -1) return
    process.stdin.off('data', onData)
    process.stdin.pause()
    Object.assign(process.env, JSON.parse(line.slice(0, end)))
    start()
  }
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', onData)
} else start()
function start() {
const apiKey = process.env.AGENT_API_KEY
const send = (res, status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)) }
let didRequests = 0
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/did-requests') return send(res, 200, { didRequests })
  if (req.method === 'GET' && req.url === '/agent') {
    if (req.headers.authorization !== undefined && req.headers.authorization !== 'Bearer ' + apiKey) return send(res, 401, { statusCode: 401, message: 'Unauthorized' })
    if (mode === 'never-ready') return send(res, 503, { statusCode: 503, message: 'Agent is starting' })
    return send(res, 200, { statusCode: 200, message: 'Agent is ready', data: { label: process.env.AGENT_LABEL, isInitialized: true } })
  }
  if (req.method === 'GET' && req.url === '/env') {
    return send(res, 200, Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('AGENT_'))))
  }
  if (req.method === 'POST' && req.url === '/dids') {
    if (req.headers.authorization !== 'Bearer ' + apiKey) return send(res, 401, { statusCode: 401, message: 'Unauthorized' })
    didRequests += 1
    let text = ''
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => {
      const body = JSON.parse(text || '{}')
      const material = body.seed || randomBytes(32).toString('hex')
      const id = 'z6Mk' + createHash('sha256').update(material).digest('hex').slice(0, 40)
      const did = body.method === 'web' ? 'did:web:' + body.domain : 'did:' + (body.method || 'key') + ':' + id
      setTimeout(() => send(res, 201, { statusCode: 201, message: 'DID created', data: { did } }), mode === 'slow-did' ? 3000 : 0)
    })
    return
  }
  send(res, 404, { statusCode: 404, message: 'Not found' })
})
server.on('error', (error) => { console.error(JSON.stringify({ level: 'error', msg: 'fake agent failed', error: String(error) })); process.exit(1) })
const listen = () => server.listen(Number(process.env.AGENT_ADMIN_PORT), process.env.FAKE_AGENT_HOST || '127.0.0.1', () => {
  console.log(JSON.stringify({ level: 'info', msg: 'Fake agent listening', port: process.env.AGENT_ADMIN_PORT }))
})
if (mode === 'supervised') setTimeout(listen, 3000)
else listen()
process.on('SIGTERM', () => server.close(() => process.exit(0)))
if (mode === 'supervised') {
  process.stdin.on('end', () => process.exit(0))
  process.stdin.on('close', () => process.exit(0))
  process.stdin.resume()
}
}
`

export interface FakeAgentPrograms {
  /** Path of the script for AGENT_ENTRYPOINT. */
  path(mode: FakeAgentMode): string
  remove(): void
}

/** Writes one script per mode into a temporary directory. */
export function writeFakeAgentPrograms(baseDir: string): FakeAgentPrograms {
  mkdirSync(baseDir, { recursive: true })
  const dir = mkdtempSync(path.join(baseDir, 'fake-agent-'))
  const written = new Map<FakeAgentMode, string>()
  return {
    path: (mode) => {
      const existing = written.get(mode)
      if (existing) return existing
      const file = path.join(dir, `${mode}-${createHash('sha1').update(mode).digest('hex').slice(0, 6)}.js`)
      writeFileSync(file, SOURCE(mode))
      written.set(mode, file)
      return file
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
