import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express, { type Request, type Response } from 'express'
import { Registry } from 'prom-client'
import { silentLogger } from '@idplane/common'
import { TokenService } from '../../infra/auth/token.service'
import { loadConfig } from '../../infra/config'
import { errorHandler } from '../../infra/http/error-handler'
import { cloudWalletConfig } from './cloud-wallet.config'
import { CloudWalletMetrics } from './cloud-wallet-metrics'
import { WalletAdmission } from './wallet-admission'

const tokens = new TokenService({
  ...generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }),
  keyDir: '/nonexistent',
  issuer: 'idplane',
  audience: 'idplane-api',
  accessTokenTtlSeconds: 60,
  refreshTokenTtlSeconds: 600,
})

const tokenOf = (userId: string) =>
  tokens.signForUser({ id: userId, email: `${userId}@example.test` }, randomUUID()).accessToken

interface Answer {
  status: number
  body: { message?: string; principal?: string | null }
  retryAfter?: string
}

/**
 * WalletAdmission in front of a route whose answers the test releases one by one, over real HTTP: who runs, who
 * waits, who is refused, and what a client that leaves while it waits costs.
 */
describe('WalletAdmission (holders take turns)', () => {
  let server: Server
  let registry: Registry
  /** The route's calls so far, each answered when the test releases it. */
  let running: { principal: string | null; release: () => void }[]

  async function start(env: Record<string, string>): Promise<void> {
    registry = new Registry()
    running = []
    const config = loadConfig({ DATA_DIR: '/tmp/idplane-unit', ...env }, [cloudWalletConfig])
    const admission = new WalletAdmission(tokens, new CloudWalletMetrics(registry, async () => 0), config)
    const app = express()
    app.get(
      '/held',
      (req, res, next) => admission.use(req, res, next),
      (req: Request, res: Response) => {
        const principal = req.principal?.kind === 'user' ? req.principal.userId : null
        running.push({ principal, release: () => (res.headersSent ? undefined : res.json({ principal })) })
      },
    )
    app.use(errorHandler(silentLogger))
    server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
  }

  afterEach(async () => {
    for (const call of running) call.release()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  /** A GET of the held route; `abort` ends the request from the client's side. */
  function get(token?: string): { answer: Promise<Answer>; abort: () => void } {
    const { port } = server.address() as AddressInfo
    let abort = () => {}
    const answer = new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/held', headers: token ? { authorization: `Bearer ${token}` } : {} },
        (res) => {
          let text = ''
          res.on('data', (chunk: Buffer) => (text += chunk.toString()))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(text) as Answer['body'],
              retryAfter: res.headers['retry-after'],
            }),
          )
        },
      )
      req.on('error', reject)
      req.end()
      abort = () => {
        req.on('error', () => {})
        req.destroy()
      }
    })
    return { answer, abort }
  }

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(check()).toBe(true)
  }

  const metricsText = () => registry.metrics()

  it('runs CLOUD_WALLET_CONCURRENCY requests at once; the next waits for a turn, then runs', async () => {
    await start({ CLOUD_WALLET_CONCURRENCY: '2', CLOUD_WALLET_QUEUE_MAX: '10' })
    const alice = get(tokenOf('alice'))
    const bob = get(tokenOf('bob'))
    await until(() => running.length === 2)
    const carol = get(tokenOf('carol'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(running.map((call) => call.principal).sort()).toEqual(['alice', 'bob'])
    expect(await metricsText()).toMatch(/idplane_api_cloud_wallet_requests\{state="waiting"\} 1/)

    running[0].release()
    await until(() => running.length === 3)
    expect(running[2].principal).toBe('carol')
    running[1].release()
    running[2].release()
    // The route saw the principal verified by the admission (the authorization check then reuses it).
    expect(
      (await Promise.all([alice.answer, bob.answer, carol.answer])).map((answer) => answer.body.principal),
    ).toEqual(['alice', 'bob', 'carol'])
    const text = await metricsText()
    expect(text).toMatch(/idplane_api_cloud_wallet_admission_wait_seconds_count\{result="admitted"\} 3/)
    expect(text).toMatch(/idplane_api_cloud_wallet_requests\{state="running"\} 0/)
  })

  it('keeps a slot from one holder: their second request waits while another holder runs', async () => {
    // 4 slots: one holder runs at most one request at once.
    await start({ CLOUD_WALLET_CONCURRENCY: '4', CLOUD_WALLET_QUEUE_MAX: '40' })
    const first = get(tokenOf('alice'))
    await until(() => running.length === 1)
    const second = get(tokenOf('alice'))
    const bob = get(tokenOf('bob'))
    await until(() => running.length === 2)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(running.map((call) => call.principal)).toEqual(['alice', 'bob'])
    running[0].release()
    await until(() => running.length === 3)
    running[1].release()
    running[2].release()
    expect((await Promise.all([first.answer, second.answer, bob.answer])).map((answer) => answer.status)).toEqual([
      200, 200, 200,
    ])
  })

  it('answers 429 with Retry-After once the queue is full, and the queued ones still run', async () => {
    await start({ CLOUD_WALLET_CONCURRENCY: '1', CLOUD_WALLET_QUEUE_MAX: '1' })
    const alice = get(tokenOf('alice'))
    await until(() => running.length === 1)
    const bob = get(tokenOf('bob'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const refused = await get(tokenOf('carol')).answer
    expect(refused.status).toBe(429)
    expect(refused.retryAfter).toBe('1')
    expect(refused.body.message).toMatch(/Too many cloud-wallet requests at once/)

    running[0].release()
    await until(() => running.length === 2)
    running[1].release()
    expect((await Promise.all([alice.answer, bob.answer])).map((answer) => answer.status)).toEqual([200, 200])
    expect(await metricsText()).toMatch(/idplane_api_cloud_wallet_admission_wait_seconds_count\{result="refused"\} 1/)
  })

  it('lets a request without a valid token through ungated: the route answers it (401 there), holding no place', async () => {
    await start({ CLOUD_WALLET_CONCURRENCY: '1', CLOUD_WALLET_QUEUE_MAX: '0' })
    const alice = get(tokenOf('alice'))
    await until(() => running.length === 1)
    const anonymous = get()
    const forged = get('not.a.token')
    await until(() => running.length === 3)
    expect(running.slice(1).map((call) => call.principal)).toEqual([null, null])
    for (const call of running) call.release()
    expect((await Promise.all([alice.answer, anonymous.answer, forged.answer])).map((a) => a.status)).toEqual([
      200, 200, 200,
    ])
  })

  it('skips a client that left while it waited: its route never runs and its turn passes on', async () => {
    await start({ CLOUD_WALLET_CONCURRENCY: '1', CLOUD_WALLET_QUEUE_MAX: '10' })
    const alice = get(tokenOf('alice'))
    await until(() => running.length === 1)
    const leaver = get(tokenOf('bob'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    leaver.abort()
    await expect(leaver.answer).rejects.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const carol = get(tokenOf('carol'))
    await new Promise((resolve) => setTimeout(resolve, 50))

    running[0].release()
    await until(() => running.length === 2)
    expect(running[1].principal).toBe('carol')
    running[1].release()
    expect((await Promise.all([alice.answer, carol.answer])).map((answer) => answer.status)).toEqual([200, 200])
    expect(await metricsText()).toMatch(/idplane_api_cloud_wallet_admission_wait_seconds_count\{result="abandoned"\} 1/)
  })
})
