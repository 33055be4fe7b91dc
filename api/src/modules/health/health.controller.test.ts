import type { ReadinessCheck } from '../../infra/tokens'
import { HealthController } from './health.controller'

const check = (name: string, healthy: boolean | Error, extra: Partial<ReadinessCheck> = {}): ReadinessCheck => ({
  name,
  isHealthy: async () => {
    if (healthy instanceof Error) throw healthy
    return healthy
  },
  ...extra,
})

async function ready(checks: ReadinessCheck[]) {
  const res = { code: 0, status: (code: number) => (res.code = code) }
  const body = await new HealthController(checks).ready(res)
  return { status: res.code, body }
}

describe('GET /health/ready', () => {
  it('is ready when every required check is up, and shows a failing capability as degraded with why', async () => {
    const ledger = check('ledger', false, { isRequired: false, detail: () => 'writes refused, anchor' })
    const { status, body } = await ready([check('database', true), ledger])
    expect(status).toBe(200)
    expect(body).toMatchObject({
      statusCode: 200,
      data: { database: 'up', ledger: 'degraded: writes refused, anchor' },
    })
  })

  it('is not ready when a required check is down or throws', async () => {
    const { status, body } = await ready([check('database', new Error('gone')), check('queue', true)])
    expect(status).toBe(503)
    expect(body).toMatchObject({ statusCode: 503, data: { database: 'down', queue: 'up' } })
    const optional = await ready([check('ledger', new Error('db'), { isRequired: false })])
    expect(optional).toMatchObject({ status: 200, body: { data: { ledger: 'degraded' } } })
  })
})
