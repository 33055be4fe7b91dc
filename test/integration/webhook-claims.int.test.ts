import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { Registry } from 'prom-client'
import { MailOutboxRepository } from '../../api/src/infra/mail/mail-outbox.repository'
import {
  WebhookDeliveriesRepository,
  type ClaimedDelivery,
} from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import type { WebhookEventData } from '../../api/src/modules/webhooks/webhook-request'
import { startIdleApiRuntime, type IdleApiRuntime } from '../helpers/api-runtime'
import { aPendingDelivery, aTenantEvent, aTenantWebhook } from '../helpers/webhook-fixtures'

/**
 * The outbox relays claim as many due rows as they have free slots in one statement (infra/outbox/outbox-relay.ts):
 * oldest first, never more than asked, and with a per-owner limit no owner ends up holding more live claims than
 * it allows (its rows ranked after the claims it already holds). Runs on the path the environment chooses.
 */
describe('outbox claims in batches', () => {
  let api: IdleApiRuntime
  let sql: ReturnType<EntityManager['getConnection']>
  let deliveries: WebhookDeliveriesRepository
  let mails: MailOutboxRepository

  beforeAll(async () => {
    api = await startIdleApiRuntime()
    const em = api.runtime.container.get(EntityManager)
    sql = em.getConnection()
    deliveries = api.runtime.container.get(WebhookDeliveriesRepository)
    mails = new MailOutboxRepository(em)
  }, 60_000)

  afterAll(async () => {
    await api?.close()
  })

  /** A delivery of a tenant's event (an owner without an organization), due `secondsAgo` ago; its event id. */
  async function aDelivery(tenantId: string, secondsAgo: number): Promise<string> {
    const eventId = await aPendingDelivery(sql, deliveries, tenantId)
    await sql.execute(
      `update webhook_deliveries set next_attempt_at = now() - make_interval(secs => ?) where event_id = ?`,
      [secondsAgo, eventId],
    )
    return eventId
  }

  const claimWithRest = (max: number, perOwnerLimit?: number, token = randomUUID()) =>
    deliveries.claimDue({ token, leaseSeconds: 60, max, perOwnerLimit })
  const claim = async (max: number, perOwnerLimit?: number, token = randomUUID()) =>
    (await claimWithRest(max, perOwnerLimit, token)).items
  /** idplane_api_database_statements_total by kind, as the API's registry holds it now. */
  async function statementsCounted(): Promise<Record<string, number>> {
    const metric = await api.runtime.container
      .get(Registry)
      .getSingleMetric('idplane_api_database_statements_total')
      ?.get()
    return Object.fromEntries(metric?.values.map((value) => [String(value.labels.kind), value.value]) ?? [])
  }
  const eventIdsOf = (claimed: { payload: { id: string } }[]) => claimed.map((delivery) => delivery.payload.id)

  it('claims the oldest due deliveries up to the limit of each owner, counting the claims it already holds', async () => {
    const a = [await aDelivery('tenant-a', 70), await aDelivery('tenant-a', 60), await aDelivery('tenant-a', 50)]
    a.push(await aDelivery('tenant-a', 40), await aDelivery('tenant-a', 30))
    const b = [await aDelivery('tenant-b', 45), await aDelivery('tenant-b', 35)]

    // One claim of the oldest: tenant a holds one.
    const token = randomUUID()
    const [first] = await claim(1, 3, token)
    expect(first?.payload.id).toBe(a[0])
    // Tenant a may take two more, tenant b both of its own; oldest first across owners.
    expect(eventIdsOf(await claim(10, 3))).toEqual([a[1], a[2], b[0], b[1]])
    // Tenant a holds three, tenant b has nothing left: nothing due that either may take, but rows are left (a's).
    expect(await claimWithRest(10, 3)).toEqual({ items: [], isMoreDue: true })
    // One of tenant a's ends: one slot, for its oldest waiting delivery.
    expect(await deliveries.record(first.id, token, { kind: 'delivered', status: 200, url: first.targetUrl })).toBe(
      true,
    )
    expect(eventIdsOf(await claim(10, 3))).toEqual([a[3]])
    // Without a per-owner limit only `max` bounds a claim.
    await sql.execute(`update webhook_deliveries set claimed_until = null where status = 'pending'`)
    expect(eventIdsOf(await claim(2))).toEqual([a[1], a[2]])
    expect(eventIdsOf(await claim(10))).toEqual([b[0], a[3], b[1], a[4]])
  })

  it('records delivered attempts and claims the next due deliveries in one statement, the recorded claims ended', async () => {
    await sql.execute(
      `update webhook_deliveries set status = 'delivered', claimed_until = null where status = 'pending'`,
    )
    const c = [await aDelivery('tenant-c', 60), await aDelivery('tenant-c', 50), await aDelivery('tenant-c', 40)]
    c.push(await aDelivery('tenant-c', 30), await aDelivery('tenant-c', 20), await aDelivery('tenant-c', 10))
    const token = randomUUID()
    const held = await claim(3, 3, token)
    expect(eventIdsOf(held)).toEqual(c.slice(0, 3))
    expect(await claimWithRest(10, 3)).toEqual({ items: [], isMoreDue: true })
    const deliveredOf = (delivery: ClaimedDelivery, claimToken = token) => ({
      id: delivery.id,
      claimToken,
      status: 200,
      url: delivery.targetUrl,
    })
    const claimOf = (max: number, claimToken = randomUUID()) => ({
      token: claimToken,
      leaseSeconds: 60,
      max,
      perOwnerLimit: 3,
    })

    // The first one delivered: its claim ends in the statement that claims, so tenant c may take one more.
    const next = randomUUID()
    const first = await deliveries.recordDeliveredAndClaimDue([deliveredOf(held[0])], claimOf(10, next))
    expect(first.recordedIds).toEqual(new Set([held[0].id]))
    expect(first.claimed).toEqual({ items: [expect.anything()], isMoreDue: true })
    expect(eventIdsOf(first.claimed.items)).toEqual([c[3]])
    const stateOf = async (id: string) =>
      (
        await sql.execute<{ status: string; claim_token: string | null; last_response_code: number | null }[]>(
          'select status, claim_token, last_response_code from webhook_deliveries where id = ?',
          [id],
        )
      )[0]
    expect(await stateOf(held[0].id)).toEqual({ status: 'delivered', claim_token: null, last_response_code: 200 })
    expect(await stateOf(first.claimed.items[0].id)).toEqual({
      status: 'pending',
      claim_token: next,
      last_response_code: null,
    })

    // Two at once, one of them under a claim that was lost: only the other is recorded, and only its slot frees.
    const both = await deliveries.recordDeliveredAndClaimDue(
      [deliveredOf(held[1], randomUUID()), deliveredOf(held[2])],
      claimOf(10),
    )
    expect(both.recordedIds).toEqual(new Set([held[2].id]))
    expect(eventIdsOf(both.claimed.items)).toEqual([c[4]])
    expect((await stateOf(held[1].id)).status).toBe('pending')

    // Nothing claimed (max 0, as a stopped relay asks): the records alone.
    const last = await deliveries.recordDeliveredAndClaimDue([deliveredOf(held[1])], claimOf(0))
    expect(last).toEqual({ recordedIds: new Set([held[1].id]), claimed: { items: [], isMoreDue: true } })
    const rest = await claimWithRest(10, 3)
    expect(eventIdsOf(rest.items)).toEqual([c[5]])
    expect(rest.isMoreDue).toBe(false)
    // Nothing due at all: the relay may stop claiming until something wakes it.
    expect(await claimWithRest(10, 3)).toEqual({ items: [], isMoreDue: false })
  })

  it('claims the deliveries of one insert in the order they were written', async () => {
    await sql.execute(
      `update webhook_deliveries set status = 'delivered', claimed_until = null where status = 'pending'`,
    )
    // An agent event batch's deliveries are one insert: they share their due time and creation time to the
    // millisecond, so only the delivery id can keep the order of the events.
    const eventIds = Array.from({ length: 300 }, () => randomUUID())
    await aTenantWebhook(sql, 'tenant-d')
    await deliveries.transactional(() =>
      deliveries.addForEvents(eventIds.map((eventId) => aTenantEvent('tenant-d', eventId))),
    )
    expect(eventIdsOf(await claim(100, 100))).toEqual(eventIds.slice(0, 100))
    expect(eventIdsOf(await claim(1000))).toEqual(eventIds.slice(100))
  })

  it('queues deliveries when they are written, not when their transaction began', async () => {
    await sql.execute(
      `update webhook_deliveries set status = 'delivered', claimed_until = null where status = 'pending'`,
    )
    await aTenantWebhook(sql, 'tenant-w')
    const [slow, quick] = [aTenantEvent('tenant-w'), aTenantEvent('tenant-w')]
    const written: string[] = []
    const em = api.runtime.container.get(EntityManager)
    const write = (event: WebhookEventData) => deliveries.addForEvents([event]).then(() => written.push(event.id))
    let began!: () => void
    const slowBegan = new Promise<void>((resolve) => (began = resolve))
    // The slow transaction begins first and writes last, as one does that waited for another's row lock (two
    // reports of one record): its delivery goes after the one written before it. On PGlite transactions take turns,
    // so there the quick one begins after the slow one has committed; either way the claim follows the writes.
    const slowWork = em.transactional(async (tx) => {
      await tx.execute('select 1')
      began()
      await new Promise((resolve) => setTimeout(resolve, 300))
      await write(slow)
    })
    await slowBegan
    await Promise.all([em.transactional(() => write(quick)), slowWork])
    expect(written).toHaveLength(2)
    expect(eventIdsOf(await claim(10))).toEqual(written)
  })

  it('stores a batch of events with their targets in one statement: each URL once, the registered webhook first', async () => {
    const orgId = randomUUID()
    const [orgHook, notify] = ['http://127.0.0.1:9/org-hook', 'http://127.0.0.1:9/notify']
    await sql.execute(
      `insert into organizations (id, name, slug, description, logo_url, is_public, notification_webhook, created_at,
         updated_at) values (?, 'Hooked', ?, '', '', false, ?, now(), now())`,
      [orgId, `hooked-${orgId}`, notify],
    )
    const webhookId = randomUUID()
    await sql.execute(
      `insert into webhooks (id, organization_id, url, created_at, updated_at) values (?, ?, ?, now(), now())`,
      [webhookId, orgId, orgHook],
    )
    await aTenantWebhook(sql, 'tenant-e')
    const orgEvent = (): WebhookEventData => ({
      id: randomUUID(),
      type: 'connection.state-changed',
      orgId,
      occurredAt: new Date().toISOString(),
      record: {},
    })
    const [first, tenants, second] = [orgEvent(), aTenantEvent('tenant-e'), orgEvent()]
    const stored = async (eventIds: string[]) =>
      (
        await sql.execute<{ event_id: string; target: string; target_url: string; webhook_id: string | null }[]>(
          `select event_id, target, target_url, webhook_id from webhook_deliveries where event_id in (?) order by id`,
          [eventIds],
        )
      ).map((row) => [row.event_id, row.target, row.target_url, row.webhook_id])

    const counted = await statementsCounted()
    expect(await deliveries.transactional(() => deliveries.addForEvents([first, tenants, second]))).toBe(5)
    // One statement, which the API's statement metric saw (idplane_api_database_statements_total, a `with` statement).
    expect(await statementsCounted()).toEqual({ ...counted, with: (counted.with ?? 0) + 1 })
    expect(await stored([first.id, tenants.id, second.id])).toEqual([
      [first.id, 'webhook', orgHook, webhookId],
      [first.id, 'notificationWebhook', notify, null],
      [tenants.id, 'webhook', 'http://127.0.0.1:9/hook', expect.any(String)],
      [second.id, 'webhook', orgHook, webhookId],
      [second.id, 'notificationWebhook', notify, null],
    ])

    // The notificationWebhook is the registered webhook's URL: one delivery, the registered (signed) one.
    await sql.execute(`update organizations set notification_webhook = ? where id = ?`, [orgHook, orgId])
    const third = orgEvent()
    expect(await deliveries.transactional(() => deliveries.addForEvents([third, first]))).toBe(1)
    expect(await stored([third.id])).toEqual([[third.id, 'webhook', orgHook, webhookId]])
    // An owner with no target: nothing stored.
    const targetless = { ...orgEvent(), orgId: randomUUID() }
    expect(await deliveries.transactional(() => deliveries.addForEvents([targetless]))).toBe(0)
  })

  it("sends the relays' claims and marks as statements prepared once per connection, and counts them", async () => {
    const token = randomUUID()
    await aDelivery('tenant-p', 5)
    const counted = await statementsCounted()
    const [held] = await claim(1, undefined, token)
    await deliveries.recordDeliveredAndClaimDue(
      [{ id: held.id, claimToken: token, status: 200, url: held.targetUrl }],
      {
        token: randomUUID(),
        leaseSeconds: 60,
        max: 0,
      },
    )
    await mails.claimDue({ token: randomUUID(), leaseSeconds: 60, max: 1 })
    expect((await statementsCounted()).with).toBe((counted.with ?? 0) + 3)

    // Every connection of the pool, each asked which statements it holds prepared: the connections that ran these.
    const pool = await sql.getNativeClient()
    const clients = await Promise.all(Array.from({ length: Math.max(pool.totalCount, 1) }, () => pool.connect()))
    try {
      const names = new Set<string>()
      for (const client of clients) {
        const { rows } = await client.query<{ name: string }>('select name from pg_prepared_statements')
        for (const row of rows) names.add(row.name)
      }
      expect([...names]).toEqual(
        expect.arrayContaining([
          'webhook_deliveries_claim',
          'webhook_deliveries_record_and_claim',
          'mail_outbox_claim',
        ]),
      )
    } finally {
      for (const client of clients) client.release()
    }
  })

  it('claims due mail oldest first, never more than asked', async () => {
    const keys = ['m1', 'm2', 'm3'].map((key) => `${key}-${randomUUID()}`)
    for (const key of keys) {
      await mails.add([{ idempotencyKey: key, message: { to: 'a@example.com', subject: 'Hi', text: key } }])
      // Distinct creation times: the claim's order is the rows' age.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const claimKeys = async (max: number) =>
      (await mails.claimDue({ token: randomUUID(), leaseSeconds: 60, max })).map((mail) => mail.idempotencyKey)
    expect(await claimKeys(2)).toEqual(keys.slice(0, 2))
    expect(await claimKeys(5)).toEqual(keys.slice(2))
    expect(await claimKeys(5)).toEqual([])
  })

  it('claims no more mail than asked from a longer outbox, whatever plan the database picks', async () => {
    // A bulk issuance's mails (50 rows): the planner made the claim's locking subquery the inner side
    // of a nested loop, rescanned per row, and each rescan skipped the rows the statement had just claimed and
    // returned the next: a claim of one took two. The relay then had two mails in flight, and a kill sent both again.
    const prefix = `bulk-${randomUUID()}`
    // Statistics that say one row (analyzed when the outbox held one mail, as the embedded database's maintenance
    // may have): the planner then chose that nested loop, every time.
    await sql.execute(`delete from mail_outbox`)
    await mails.add([{ idempotencyKey: `${prefix}:first`, message: { to: 'a@example.com', subject: 'Hi', text: 'x' } }])
    await sql.execute('analyze mail_outbox')
    await mails.add(
      Array.from({ length: 49 }, (_, index) => ({
        idempotencyKey: `${prefix}:${index}`,
        message: { to: 'a@example.com', subject: 'Hi', text: String(index) },
      })),
    )
    const claimed: string[][] = []
    for (let round = 0; round < 5; round++) {
      claimed.push(
        (await mails.claimDue({ token: randomUUID(), leaseSeconds: 60, max: 1 })).map((mail) => mail.idempotencyKey),
      )
    }
    expect(claimed.map((keys) => keys.length)).toEqual([1, 1, 1, 1, 1])
    // Whatever is left is claimed by later calls, one at a time (no row twice).
    const rest = await mails.claimDue({ token: randomUUID(), leaseSeconds: 60, max: 100 })
    expect(new Set([...claimed.flat(), ...rest.map((mail) => mail.idempotencyKey)]).size).toBe(50)
  })
})
