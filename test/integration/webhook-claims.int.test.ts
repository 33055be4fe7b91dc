import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { EntityManager } from '@mikro-orm/postgresql'
import { silentLogger } from '@idplane/common'
import { createRuntime, type Runtime } from '../../api/src/container'
import { loadConfig, type Config } from '../../api/src/infra/config'
import { MailOutboxRepository } from '../../api/src/infra/mail/mail-outbox.repository'
import { configSectionsOf } from '../../api/src/infra/module-registry'
import { API_MODULES } from '../../api/src/modules'
import { WebhookDeliveriesRepository } from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import { TEST_SCRYPT_LOG_N } from '../helpers/api'
import { freshDatabase, type FreshDatabase } from '../helpers/database'

/**
 * The outbox relays claim as many due rows as they have free slots in one statement (infra/outbox/outbox-relay.ts):
 * oldest first, never more than asked, and with a per-owner limit no owner ends up holding more live claims than
 * it allows (its rows ranked after the claims it already holds). Runs on the path the environment chooses.
 */
describe('outbox claims in batches', () => {
  let database: FreshDatabase
  let runtime: Runtime
  let dataDir: string
  let sql: ReturnType<EntityManager['getConnection']>
  let deliveries: WebhookDeliveriesRepository
  let mails: MailOutboxRepository

  beforeAll(async () => {
    database = await freshDatabase()
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-claims-'))
    const loaded = loadConfig(
      {
        DATA_DIR: dataDir,
        AMQP_URL: process.env.AMQP_URL,
        QUEUE_NAME_PREFIX: `test-${randomBytes(4).toString('hex')}.`,
        LOG_LEVEL: 'error',
      },
      configSectionsOf(API_MODULES),
    )
    const config: Config = { ...loaded, database: database.target, isEmbedded: database.kind === 'pglite' }
    // No workers: the relays must not claim the rows the test claims.
    runtime = await createRuntime(config, silentLogger, { passwordHashLogN: TEST_SCRYPT_LOG_N, startWorkers: false })
    const em = runtime.container.get(EntityManager)
    sql = em.getConnection()
    deliveries = runtime.container.get(WebhookDeliveriesRepository)
    mails = new MailOutboxRepository(em)
  }, 60_000)

  afterAll(async () => {
    await runtime?.close()
    await database?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  /** A delivery of a tenant's event (an owner without an organization), due `secondsAgo` ago; its event id. */
  async function aDelivery(tenantId: string, secondsAgo: number): Promise<string> {
    const eventId = randomUUID()
    await deliveries.add([
      {
        data: {
          id: eventId,
          type: 'connection.state-changed',
          orgId: null,
          tenantId,
          occurredAt: new Date().toISOString(),
          record: {},
        },
        target: 'notificationWebhook',
        targetUrl: `http://127.0.0.1:9/${eventId}`,
        webhookId: null,
      },
    ])
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
