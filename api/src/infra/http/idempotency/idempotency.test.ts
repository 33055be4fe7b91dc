import express, { type NextFunction, type Request, type Response } from 'express'
import request from 'supertest'
import { silentLogger } from '@idplane/common'
import type { SessionCheck } from '../../auth/session-check'
import type { Principal, TokenService } from '../../auth/token.service'
import { errorHandler, notFoundHandler } from '../error-handler'
import { idempotency } from './idempotency'
import type { ClaimResult, IdempotencyKeysRepository } from './idempotency-keys.repository'

interface StoredKey {
  id: string
  fingerprint: string
  status?: number
  body?: unknown
}

/** The repository's contract in memory, with a gate on `complete` to hold the write of an answer. */
class KeysInMemory {
  public readonly rows = new Map<string, StoredKey>()
  public completeGate: Promise<void> = Promise.resolve()
  private next = 0

  public async claim(scope: string, key: string, fingerprint: string): Promise<ClaimResult> {
    const row = this.rows.get(`${scope} ${key}`)
    if (!row) {
      const id = String(++this.next)
      this.rows.set(`${scope} ${key}`, { id, fingerprint })
      return { kind: 'claimed', id }
    }
    return {
      kind: 'taken',
      fingerprint: row.fingerprint,
      state: row.status === undefined ? 'pending' : 'done',
      responseStatus: row.status ?? null,
      responseBody: row.body ?? null,
    }
  }

  public async complete(id: string, status: number, body: unknown): Promise<void> {
    await this.completeGate
    const row = [...this.rows.values()].find((candidate) => candidate.id === id)
    if (row) Object.assign(row, { status, body: JSON.parse(JSON.stringify(body)) })
  }

  public async release(id: string): Promise<void> {
    for (const [name, row] of this.rows) if (row.id === id) this.rows.delete(name)
  }

  public async deleteExpired(): Promise<number> {
    return 0
  }
}

const orgPath = '/v1/orgs/0b8f6a52-3f0e-4a3e-9a51-2d7c1f3e9c11/things'

/** The middleware in front of a route that answers as routing-controllers does: `json`, then `next()`. */
function appWith(keys: KeysInMemory) {
  const principal: Principal = { kind: 'user', userId: 'u1', email: 'u1@example.test', sessionId: 's1' }
  const tokens = { verify: () => principal } as unknown as TokenService
  const sessions = { assertActive: async () => undefined } as unknown as SessionCheck
  let acted = 0
  const app = express()
  app.use(express.json())
  app.use(
    idempotency(keys as unknown as IdempotencyKeysRepository, tokens, sessions, silentLogger, {
      ttlSeconds: 60,
      pendingTimeoutSeconds: 60,
      waitMs: 0,
      pruneIntervalSeconds: 600,
    }),
  )
  app.post(orgPath, (req: Request, res: Response, next: NextFunction) => {
    acted += 1
    res.status(req.body.fail ? 500 : 201).json({ data: { acted } })
    next()
  })
  app.use(notFoundHandler)
  app.use(errorHandler(silentLogger))
  return { app, acted: () => acted }
}

/** Resolves once `condition` holds (the route was reached), however slow the machine; no fixed sleep. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

const send = (app: express.Express, body: object, key: string) =>
  request(app).post(orgPath).set('Authorization', 'Bearer token').set('Idempotency-Key', key).send(body)

describe('idempotency middleware', () => {
  it('sends the answer only once it is recorded, so an immediate retry gets it replayed', async () => {
    const keys = new KeysInMemory()
    let openGate: () => void = () => undefined
    keys.completeGate = new Promise((resolve) => (openGate = resolve))
    const { app, acted } = appWith(keys)

    let arrived = false
    const first = send(app, { name: 'a' }, 'k1').then((answer) => {
      arrived = true
      return answer
    })
    // The route ran and answered: its answer is held until the record is written.
    await until(() => acted() === 1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(arrived).toBe(false)
    openGate()
    const answer = await first
    // The route's answer, not the 404 of the handler its `next()` reaches.
    expect(answer.status).toBe(201)
    expect(answer.body).toEqual({ data: { acted: 1 } })

    const again = await send(app, { name: 'a' }, 'k1')
    expect(again.status).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toEqual(answer.body)
    expect(acted()).toBe(1)
  })

  it('gives the key up after a 5xx: the retry acts again', async () => {
    const keys = new KeysInMemory()
    const { app, acted } = appWith(keys)
    expect((await send(app, { fail: true }, 'k2')).status).toBe(500)
    expect(keys.rows.size).toBe(0)
    expect((await send(app, { fail: true }, 'k2')).status).toBe(500)
    expect(acted()).toBe(2)
  })

  it('answers 409 for a retry while the first is still being recorded (no wait configured)', async () => {
    const keys = new KeysInMemory()
    let openGate: () => void = () => undefined
    keys.completeGate = new Promise((resolve) => (openGate = resolve))
    const { app, acted } = appWith(keys)
    // supertest sends on `then`.
    const first = send(app, { name: 'b' }, 'k3').then((answer) => answer)
    // The first holds the key (its route ran) before the retry is sent.
    await until(() => acted() === 1)
    const during = await send(app, { name: 'b' }, 'k3')
    expect(during.status).toBe(409)
    openGate()
    expect((await first).status).toBe(201)
  })
})
