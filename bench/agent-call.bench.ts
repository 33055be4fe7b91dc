/**
 * The API's calls to an agent's admin API: CPU of the calling process per call, our client (requestAgent, node:http
 * with kept connections) against the same call through fetch (undici, what the API used before), alternated ABBA in
 * one run. The stand-in agent is a separate process, so the figures are the caller's alone.
 *
 *   npm run bench:agent-call
 *   BENCH_CALLS=4000 BENCH_IN_FLIGHT=8 BENCH_ROUNDS=4 npm run bench:agent-call
 */
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { Registry } from 'prom-client'
import { silentLogger } from '@idplane/common'
import { AgentClientMetrics } from '../api/src/agent-client/agent-client-metrics'
import { requestAgent, type AgentCall, type AgentTarget } from '../api/src/agent-client/agent-request'
import { positiveIntEnv } from './api-harness'

const CALLS = positiveIntEnv('BENCH_CALLS', 4000)
const IN_FLIGHT = positiveIntEnv('BENCH_IN_FLIGHT', 8)
const ROUNDS = positiveIntEnv('BENCH_ROUNDS', 4)

/** An agent's answer of about the size of an exchange record (1 KB). */
const STAND_IN = `
const http = require('node:http')
const answer = JSON.stringify({ statusCode: 201, message: 'ok', data: { id: 'r'.repeat(36), state: 'offer-sent', detail: 'd'.repeat(900) } })
const server = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(answer))
})
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'))
process.stdin.on('close', () => process.exit(0))
process.stdin.resume()
`

const CALL: AgentCall = {
  operation: 'offerCredential',
  method: 'POST',
  path: '/credentials/offer',
  body: { connectionId: 'c'.repeat(36), credential: { claims: 'x'.repeat(900) } },
}

/** The call as the API made it before: fetch with an abort signal for the timeout. */
async function viaFetch(target: AgentTarget): Promise<unknown> {
  const response = await fetch(`${target.endpoint}${CALL.path}`, {
    method: CALL.method,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    body: JSON.stringify(CALL.body),
    signal: AbortSignal.timeout(30_000),
  })
  return JSON.parse(await response.text()) as unknown
}

/** CPU of this process per call (µs), `calls` calls with `IN_FLIGHT` at once. */
async function cpuPerCall(send: () => Promise<unknown>, calls: number): Promise<number> {
  const before = process.cpuUsage()
  let next = 0
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < calls) await send()
    }),
  )
  const used = process.cpuUsage(before)
  return (used.user + used.system) / calls
}

async function main(): Promise<void> {
  const agent = spawn(process.execPath, ['-e', STAND_IN], { stdio: ['pipe', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve) => agent.stdout.once('data', (line) => resolve(Number(line))))
  const target: AgentTarget = { orgId: 'bench', endpoint: `http://127.0.0.1:${port}`, apiKey: 'k'.repeat(32) }
  const options = { timeoutMs: 30_000, metrics: new AgentClientMetrics(new Registry()), logger: silentLogger }
  const ours = () => requestAgent(target, CALL, options)
  const peer = () => viaFetch(target)
  console.log(
    `bench:agent-call: ${CALLS} calls per phase, ${IN_FLIGHT} in flight, ${ROUNDS} rounds (ABBA), load ${loadavg()[0].toFixed(2)}`,
  )
  await cpuPerCall(ours, 500)
  await cpuPerCall(peer, 500)
  const results = { ours: [] as number[], fetch: [] as number[] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['ours', 'fetch'] as const) : (['fetch', 'ours'] as const)
    for (const side of order) results[side].push(await cpuPerCall(side === 'ours' ? ours : peer, CALLS))
  }
  agent.stdin.end()
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length
  const show = (values: number[]) => values.map((value) => value.toFixed(0)).join(' / ')
  console.log(`requestAgent (node:http) µs of CPU per call by round: ${show(results.ours)}`)
  console.log(`fetch µs of CPU per call by round: ${show(results.fetch)}`)
  console.log(`load after ${loadavg()[0].toFixed(2)}`)
  console.log(
    `CPU per call: requestAgent ${mean(results.ours).toFixed(0)} µs, fetch ${mean(results.fetch).toFixed(0)} µs (ratio ${(mean(results.ours) / mean(results.fetch)).toFixed(2)})`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
