import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { Client } from 'pg'
import type { Runtime } from '../../api/src/container'
import { MailOutboxRepository } from '../../api/src/infra/mail/mail-outbox.repository'
import { RetentionPruner } from '../../api/src/infra/retention/retention-pruner'
import { RevokedSessionsRepository } from '../../api/src/modules/auth/revoked-sessions.repository'
import { ShortUrls } from '../../api/src/modules/short-urls/short-urls.service'
import { WebhookDeliveriesRepository } from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import { startIdleApiRuntime, type IdleApiRuntime } from '../helpers/api-runtime'
import { aPendingDelivery } from '../helpers/webhook-fixtures'
import type { FreshDatabase } from '../helpers/database'

const DAY = 86_400

/**
 * One retention pass over rows of every kind, written through the repositories and then aged in SQL: exactly the
 * finished rows past their retention go; pending deliveries, unsent mail and links still working (or expired
 * within the grace day) stay, whatever their age. Runs on the path the environment chooses (PGlite and the
 * in-process queue, or DATABASE_URL and AMQP_URL).
 */
describe('retention', () => {
  let api: IdleApiRuntime
  let database: FreshDatabase
  let runtime: Runtime
  let sql: ReturnType<EntityManager['getConnection']>
  let deliveries: WebhookDeliveriesRepository
  let mails: MailOutboxRepository
  let pruner: RetentionPruner

  beforeAll(async () => {
    // Small batches: the pass must loop to take every old row.
    api = await startIdleApiRuntime({ RETENTION_BATCH_SIZE: '7', RETENTION_BATCH_PAUSE_MS: '1' })
    ;({ runtime, database } = api)
    const em = runtime.container.get(EntityManager)
    sql = em.getConnection()
    deliveries = runtime.container.get(WebhookDeliveriesRepository)
    mails = new MailOutboxRepository(em)
    pruner = runtime.container.get(RetentionPruner)
  }, 60_000)

  afterAll(async () => {
    await api?.close()
  })

  const addDelivery = () => aPendingDelivery(sql, deliveries)

  /** Claims the one due delivery and records `kind` for it. */
  async function finishDelivery(kind: 'delivered' | 'dead'): Promise<void> {
    const token = randomUUID()
    const [claimed] = (await deliveries.claimDue({ token, leaseSeconds: 60, max: 1 })).items
    if (!claimed) throw new Error('no delivery to claim')
    const url = claimed.targetUrl
    const attempt = kind === 'delivered' ? { kind, status: 200, url } : { kind, error: 'HTTP 500', url }
    expect(await deliveries.record(claimed.id, token, attempt)).toBe(true)
  }

  async function ageDelivery(eventId: string, days: number): Promise<void> {
    await sql.execute(
      `update webhook_deliveries set updated_at = now() - make_interval(days => ?), created_at = now() - make_interval(days => ?) where event_id = ?`,
      [days, days, eventId],
    )
  }

  async function addMail(key: string, end: 'sent' | 'dead' | 'pending', ageDays: number): Promise<void> {
    await mails.add([{ idempotencyKey: key, message: { to: 'a@example.com', subject: 'Hi', text: key } }])
    if (end !== 'pending') {
      const token = randomUUID()
      const [claimed] = await mails.claimDue({ token, leaseSeconds: 60, max: 1 })
      if (!claimed) throw new Error('no mail to claim')
      if (end === 'sent') expect(await mails.markSent(claimed.id, token)).toBe(true)
      else expect(await mails.markFailed(claimed.id, token, 'gave up', 0, true)).toBe(true)
    }
    await sql.execute(
      `update mail_outbox set created_at = now() - make_interval(days => ?) where idempotency_key = ?`,
      [ageDays, key],
    )
  }

  async function addLink(name: string, expiredSecondsAgo: number): Promise<void> {
    const url = await runtime.container.get(ShortUrls).shorten(`https://example.com/${name}`, { orgId: null })
    const code = url.split('/').pop()
    await sql.execute(`update short_urls set expires_at = now() - make_interval(secs => ?) where code = ?`, [
      expiredSecondsAgo,
      code,
    ])
  }

  async function remaining(query: string, params: unknown[] = []): Promise<string[]> {
    return (await sql.execute<{ name: string }[]>(query, params)).map((row) => row.name).sort()
  }

  it('deletes exactly the finished rows past their retention, in batches, and keeps the rest', async () => {
    // Webhook deliveries: 14 days after the last attempt by default.
    const oldDelivered: string[] = []
    for (let index = 0; index < 10; index++) {
      const eventId = await addDelivery()
      await finishDelivery('delivered')
      await ageDelivery(eventId, 15)
      oldDelivered.push(eventId)
    }
    const oldDead = await addDelivery()
    await finishDelivery('dead')
    await ageDelivery(oldDead, 15)
    const recentDelivered = await addDelivery()
    await finishDelivery('delivered')
    await ageDelivery(recentDelivered, 13)
    const oldPending = await addDelivery()
    await ageDelivery(oldPending, 30)

    // Mail: 7 days after it was written.
    for (let index = 0; index < 9; index++) await addMail(`old-sent-${index}`, 'sent', 8)
    await addMail('old-dead', 'dead', 8)
    await addMail('recent-sent', 'sent', 6)
    await addMail('old-pending', 'pending', 30)

    // Short links: a day after they expired.
    await addLink('expired-long-ago', 2 * DAY)
    await addLink('expired-just-now', 3_600)
    await addLink('working', -DAY)

    // Revoked sessions: once expired.
    const revocations = runtime.container.get(RevokedSessionsRepository)
    const now = Date.now()
    await revocations.add(
      ['expired-a', 'expired-b'],
      'signed-out',
      new Date(now - 2 * DAY * 1000),
      new Date(now - 1000),
    )
    await revocations.add(['active'], 'signed-out', new Date(now), new Date(now + DAY * 1000))

    const deleted = await pruner.pruneOnce()

    expect(deleted).toEqual({
      mail_outbox: 10,
      revoked_sessions: 2,
      short_urls: 1,
      webhook_deliveries: 11,
    })
    expect(await remaining('select event_id as name from webhook_deliveries')).toEqual(
      [recentDelivered, oldPending].sort(),
    )
    expect(await remaining('select idempotency_key as name from mail_outbox')).toEqual(['old-pending', 'recent-sent'])
    expect(await remaining('select target_url as name from short_urls')).toEqual([
      'https://example.com/expired-just-now',
      'https://example.com/working',
    ])
    expect(await remaining('select session_id as name from revoked_sessions')).toEqual(['active'])

    // A second pass finds nothing more.
    expect(Object.values(await pruner.pruneOnce())).toEqual([0, 0, 0, 0])
  }, 30_000)

  it('lets passes run at once (two replicas): each old row is deleted and counted once, and none fails', async () => {
    const eventIds: string[] = []
    for (let index = 0; index < 40; index++) eventIds.push(await addDelivery())
    await sql.execute(
      `update webhook_deliveries set status = 'delivered', delivered_at = now(), updated_at = now() - make_interval(days => 20)
       where status = 'pending' and event_id in (${eventIds.map(() => '?').join(', ')})`,
      eventIds,
    )
    const results = await Promise.all([pruner.pruneOnce(), pruner.pruneOnce(), pruner.pruneOnce()])

    expect(results.reduce((sum, result) => sum + result.webhook_deliveries, 0)).toBe(40)
    const [{ count }] = await sql.execute<{ count: string }[]>(
      `select count(*)::text as count from webhook_deliveries where event_id in (${eventIds.map(() => '?').join(', ')})`,
      eventIds,
    )
    expect(Number(count)).toBe(0)
  }, 30_000)

  // PGlite serves one connection: no second session can hold a row there.
  const onPostgres = process.env.DATABASE_URL ? it : it.skip
  onPostgres(
    'passes over a row another session holds instead of waiting for it, and takes it at the next pass',
    async () => {
      const held = await addDelivery()
      const other = await addDelivery()
      await sql.execute(
        `update webhook_deliveries set status = 'dead', updated_at = now() - make_interval(days => 20) where event_id in (?, ?)`,
        [held, other],
      )
      if (database.target.kind !== 'postgres') throw new Error('needs PostgreSQL')
      const session = new Client({ connectionString: database.target.url })
      await session.connect()
      try {
        await session.query('begin')
        await session.query('select id from webhook_deliveries where event_id = $1 for update', [held])
        const started = Date.now()
        expect((await pruner.pruneOnce()).webhook_deliveries).toBe(1)
        expect(Date.now() - started).toBeLessThan(5_000)
        await session.query('commit')
      } finally {
        await session.end()
      }
      expect((await pruner.pruneOnce()).webhook_deliveries).toBe(1)
      expect(
        await remaining('select event_id as name from webhook_deliveries where event_id in (?, ?)', [held, other]),
      ).toEqual([])
    },
    30_000,
  )
})
