import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { MailOutboxRepository } from '../../api/src/infra/mail/mail-outbox.repository'
import { WebhookDeliveriesRepository } from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import { startIdleApiRuntime, type IdleApiRuntime } from '../helpers/api-runtime'
import { aPendingDelivery } from '../helpers/webhook-fixtures'

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
    const eventId = await aPendingDelivery(deliveries, tenantId)
    await sql.execute(
      `update webhook_deliveries set next_attempt_at = now() - make_interval(secs => ?) where event_id = ?`,
      [secondsAgo, eventId],
    )
    return eventId
  }

  const claim = (max: number, perOwnerLimit?: number, token = randomUUID()) =>
    deliveries.claimDue({ token, leaseSeconds: 60, max, perOwnerLimit })
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
    // Tenant a holds three, tenant b has nothing left: nothing due that either may take.
    expect(await claim(10, 3)).toEqual([])
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
})
