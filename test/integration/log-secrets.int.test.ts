import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { Logger } from '@idplane/common'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, type TestUser } from '../helpers/tokens'

/** Issue 8, item 9: a database error is logged by class, code, constraint and table, never with its values. */
describe('database errors in the logs', () => {
  const lines: string[] = []
  let api: TestApi
  let owner: TestUser

  beforeAll(async () => {
    const logger = new Logger({ program: 'api' }, 'debug', { write: (line: string) => lines.push(line) })
    api = await startApi({ LOG_LEVEL: 'debug' }, { logger })
    owner = await aUserWithToken(api)
    // Constraints the API does not know, so that the database (not the API's own checks) refuses the values.
    const connection = api.runtime.container.get(EntityManager).fork().getConnection()
    await connection.execute(
      `alter table organizations add constraint no_live_keys check (description not like 'sk_live_%')`,
    )
    await connection.execute(
      'create unique index organizations_registration_number_unique on organizations (registration_number)',
    )
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('logs a failing insert without the SQL or its values', async () => {
    const secret = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'
    lines.length = 0
    const res = await request(api.app)
      .post('/v1/orgs')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ name: 'Leaky org', description: secret })
    expect(res.status).toBe(500)
    expect(JSON.stringify(res.body)).not.toContain(secret)
    const failure = lines.find((line) => line.includes('Request failed'))
    expect(failure).toBeDefined()
    expect(JSON.parse(failure ?? '{}')).toEqual(
      expect.objectContaining({
        error: expect.objectContaining({
          name: 'CheckConstraintViolationException',
          code: '23514',
          constraint: 'no_live_keys',
          table: 'organizations',
        }),
      }),
    )
    expect(lines.join('\n')).not.toContain(secret)
    expect(lines.join('\n')).not.toMatch(/insert into/i)
  })

  it('logs nothing of the values of a unique violation', async () => {
    const secret = 'REG-SECRET-d8f1b2c4e6a8'
    lines.length = 0
    const create = () =>
      request(api.app)
        .post('/v1/orgs')
        .set('Authorization', `Bearer ${owner.token}`)
        .send({ name: `Unique ${Math.random()}`, description: 'unique test', registrationNumber: secret })
    expect((await create()).status).toBe(201)
    expect((await create()).status).toBe(409)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(secret)
  })
})
