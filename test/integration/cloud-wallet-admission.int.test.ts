import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, type TestUser } from '../helpers/tokens'

jest.setTimeout(90_000)

/**
 * Holders take turns on the wallet routes (wallet-admission.ts; the held requests, the per-holder turn and a client
 * that leaves are in its unit test): through the whole app, one turn and no queue, a burst of one holder's wallet
 * requests is partly refused with 429 and Retry-After, and the base agent's event route, which the platform's
 * records wait for, is never held or refused. No base wallet is configured, so every admitted wallet request ends
 * in the 409 that says so.
 */
describe('cloud-wallet admission through the app', () => {
  let api: TestApi
  let holder: TestUser

  beforeAll(async () => {
    api = await startApi({ CLOUD_WALLET_CONCURRENCY: '1', CLOUD_WALLET_QUEUE_MAX: '0' })
    holder = await aUserWithToken(api)
  })

  afterAll(async () => {
    await api?.stop()
  })

  const counted = async (result: string) => {
    const text = (await request(api.app).get('/metrics')).text
    const match = new RegExp(
      `^idplane_api_cloud_wallet_admission_wait_seconds_count\\{result="${result}"\\} (\\d+)$`,
      'm',
    )
    return Number(match.exec(text)?.[1] ?? 0)
  }

  it('refuses what exceeds the turns with 429, answers the rest, and never holds the event route', async () => {
    const burst = await Promise.all(
      Array.from({ length: 40 }, () =>
        request(api.app).get('/v1/connections').set('Authorization', `Bearer ${holder.token}`),
      ),
    )
    const statuses = burst.map((answer) => answer.status)
    expect(new Set(statuses)).toEqual(new Set([409, 429]))
    const refused = burst.filter((answer) => answer.status === 429)
    expect(refused[0].headers['retry-after']).toBe('1')
    expect(refused[0].body.message).toMatch(/Too many cloud-wallet requests at once/)
    expect(await counted('admitted')).toBe(statuses.filter((status) => status === 409).length)
    expect(await counted('refused')).toBe(refused.length)

    // The base agent's events at the same time: answered by their own check (no base wallet: 401), none refused.
    const events = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(api.app)
          .post(BASE_WALLET_EVENTS_PATH)
          .set('Authorization', 'Bearer some-agent-key')
          .send({ id: randomUUID(), kind: 'connection', agentLabel: 'base', occurredAt: new Date().toISOString() }),
      ),
    )
    expect(new Set(events.map((answer) => answer.status))).toEqual(new Set([401]))
    expect(await counted('admitted')).toBe(statuses.filter((status) => status === 409).length)
  })

  it('lets an unauthenticated wallet request through to its 401 without a turn', async () => {
    const before = (await counted('admitted')) + (await counted('refused'))
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(api.app).get('/v1/connections')))
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([401]))
    expect((await counted('admitted')) + (await counted('refused'))).toBe(before)
  })
})
