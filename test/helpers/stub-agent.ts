/**
 * A stand-in for the agent program in k8s tests (the real one needs a database): a tiny HTTP server on
 * AGENT_ADMIN_PORT (on STUB_AGENT_HOST, default 127.0.0.1) answering GET /agent. Mode `healthy` answers 200; `never-ready` answers 503 forever;
 * `silent` never listens. GET /env lists the AGENT_* variables it was started with, so tests can check
 * what the operator and the kubelet put into the container.
 */
export type StubAgentMode = 'healthy' | 'never-ready' | 'silent'

export const STUB_AGENT_SOURCE = `
const http = require('node:http')
const mode = process.env.STUB_AGENT_MODE || 'healthy'
const port = Number(process.env.AGENT_ADMIN_PORT)
if (mode === 'silent') setInterval(() => undefined, 1 << 30)
else {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/agent') {
      if (mode === 'never-ready') return res.writeHead(503).end()
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ label: process.env.AGENT_LABEL, endpoint: process.env.AGENT_ENDPOINT }))
    }
    if (req.method === 'GET' && req.url === '/env') {
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('AGENT_')))
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify(env))
    }
    res.writeHead(404).end()
  })
  server.on('error', (error) => { console.error(String(error)); process.exit(1) })
  server.listen(port, process.env.STUB_AGENT_HOST || '127.0.0.1')
}
process.on('SIGTERM', () => process.exit(0))
`

/** The command the process kubelet runs instead of the agent image's. */
export function stubAgentCommand(
  mode: StubAgentMode = 'healthy',
  host = '127.0.0.1',
): { command: string[]; env: Record<string, string> } {
  return { command: [process.execPath, '-e', STUB_AGENT_SOURCE], env: { STUB_AGENT_MODE: mode, STUB_AGENT_HOST: host } }
}
