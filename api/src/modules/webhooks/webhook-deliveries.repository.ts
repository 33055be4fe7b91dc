import { injectable } from 'inversify'
import type { FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import { WebhookDelivery, type DeliveryStatus, type DeliveryTarget } from './webhook-delivery.entity'
import type { WebhookEventData } from './webhook-request'

/** A delivery to store with its event. */
export interface NewDelivery {
  data: WebhookEventData
  target: DeliveryTarget
  targetUrl: string
  webhookId: string | null
}

/** A delivery a worker claimed for one attempt. */
export interface ClaimedDelivery {
  id: string
  target: DeliveryTarget
  targetUrl: string
  webhookId: string | null
  payload: WebhookEventData
  occurredAt: Date
  attempts: number
  /** The registered webhook as it is now (its URL may have changed since the event); null when it has none. */
  webhook: { url: string; sealedSecret: string | null } | null
}

/** How an attempt ended, as recorded on the row. */
export type AttemptRecord =
  | { kind: 'delivered'; status: number; url: string }
  | { kind: 'retry'; status?: number; error: string; url: string; retryInMs: number; requeueAfterSeconds: number }
  | { kind: 'dead'; status?: number; error: string; url: string }

/**
 * The deliveries' queries. Times come from the database clock (`now()`), so replicas agree on leases. Claims
 * use `for update skip locked` or a conditional update, so two workers never attempt one delivery at once.
 */
@injectable()
export class WebhookDeliveriesRepository {
  public constructor(private readonly em: EntityManager) {}

  /** Stores deliveries in the current transaction; one per event and URL (a second insert adds nothing). */
  public async add(deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return
    await this.em
      .createQueryBuilder(WebhookDelivery)
      .insert(
        deliveries.map((delivery) => ({
          ...new WebhookDelivery(),
          eventId: delivery.data.id,
          eventType: delivery.data.type,
          organization: delivery.data.orgId,
          tenantId: delivery.data.tenantId ?? null,
          webhook: delivery.webhookId,
          target: delivery.target,
          targetUrl: delivery.targetUrl,
          payload: delivery.data as unknown as Record<string, unknown>,
          occurredAt: new Date(delivery.data.occurredAt),
        })),
      )
      .onConflict(['eventId', 'targetUrl'])
      .ignore()
      .execute()
  }

  /**
   * Marks up to `limit` pending deliveries that the queue does not carry (new, or past their `queuedUntil`) as
   * carried for `requeueAfterSeconds`, oldest first; resolves with their ids, to publish.
   */
  public async takeForQueue(limit: number, requeueAfterSeconds: number): Promise<string[]> {
    const rows = await this.connection().execute<{ id: string }[]>(
      `update "webhook_deliveries" set "queued_until" = now() + make_interval(secs => ?)
       where "id" in (
         select "id" from "webhook_deliveries"
         where "status" = 'pending' and ("queued_until" is null or "queued_until" < now())
         order by "created_at", "id" limit ? for update skip locked)
       returning "id"`,
      [requeueAfterSeconds, limit],
    )
    return rows.map((row) => row.id)
  }

  /** Forgets that the queue carries these (their publish failed): the next relay round takes them again. */
  public async releaseFromQueue(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return
    await this.connection().execute(
      `update "webhook_deliveries" set "queued_until" = null where "id" in (${ids.map(() => '?').join(', ')})`,
      [...ids],
      'run',
    )
  }

  /**
   * Claims a pending delivery for one attempt of at most `holdSeconds`, with its registered webhook's current URL and
   * sealed secret (one statement, not a second read per attempt); null when it is delivered, dead, gone or another
   * worker holds it.
   */
  public async claim(
    id: string,
    claimToken: string,
    holdSeconds: number,
    requeueAfterSeconds: number,
  ): Promise<ClaimedDelivery | null> {
    const rows = await this.connection().execute<
      {
        id: string
        target: DeliveryTarget
        target_url: string
        webhook_id: string | null
        payload: WebhookEventData | string
        occurred_at: Date | string
        attempts: number
        webhook_url: string | null
        webhook_sealed_secret: string | null
      }[]
    >(
      `with "claimed" as (
         update "webhook_deliveries" set "attempts" = "attempts" + 1, "claim_token" = ?,
           "claimed_until" = now() + make_interval(secs => ?),
           "queued_until" = now() + make_interval(secs => ?), "updated_at" = now()
         where "id" = ? and "status" = 'pending' and ("claimed_until" is null or "claimed_until" < now())
         returning "id", "target", "target_url", "webhook_id", "payload", "occurred_at", "attempts")
       select "claimed".*, "w"."url" as "webhook_url", "w"."sealed_secret" as "webhook_sealed_secret"
       from "claimed" left join "webhooks" "w" on "w"."id" = "claimed"."webhook_id"`,
      [claimToken, holdSeconds, holdSeconds + requeueAfterSeconds, id],
    )
    const row = rows[0]
    if (!row) return null
    return {
      id: row.id,
      target: row.target,
      targetUrl: row.target_url,
      webhookId: row.webhook_id,
      payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as WebhookEventData) : row.payload,
      occurredAt: new Date(row.occurred_at),
      attempts: Number(row.attempts),
      webhook:
        row.webhook_url === null ? null : { url: row.webhook_url, sealedSecret: row.webhook_sealed_secret ?? null },
    }
  }

  /** Records an attempt under its claim; false when the claim was lost (the hold ran out). */
  public async record(id: string, claimToken: string, attempt: AttemptRecord): Promise<boolean> {
    const common = `"claimed_until" = null, "claim_token" = null, "target_url" = ?, "last_response_code" = ?,
      "updated_at" = now()`
    const status = attempt.status ?? null
    let sql: string
    let params: unknown[]
    if (attempt.kind === 'delivered') {
      sql = `update "webhook_deliveries" set "status" = 'delivered', "delivered_at" = now(), "last_error" = null,
        "queued_until" = null, ${common} where "id" = ? and "claim_token" = ?`
      params = [attempt.url, status, id, claimToken]
    } else if (attempt.kind === 'dead') {
      sql = `update "webhook_deliveries" set "status" = 'dead', "last_error" = ?, "queued_until" = null, ${common}
        where "id" = ? and "claim_token" = ?`
      params = [attempt.error, attempt.url, status, id, claimToken]
    } else {
      sql = `update "webhook_deliveries" set "last_error" = ?,
        "next_attempt_at" = now() + make_interval(secs => ?), "queued_until" = now() + make_interval(secs => ?),
        ${common} where "id" = ? and "claim_token" = ?`
      // The queue carries the retry: the relay leaves it alone until well after it is due.
      const retryInSeconds = attempt.retryInMs / 1000
      params = [
        attempt.error,
        retryInSeconds,
        retryInSeconds + attempt.requeueAfterSeconds,
        attempt.url,
        status,
        id,
        claimToken,
      ]
    }
    const result = await this.connection().execute<{ affectedRows: number }>(sql, params, 'run')
    return result.affectedRows === 1
  }

  /** The organization's deliveries, newest first; optionally of one status. */
  public listForOrg(
    orgId: string,
    query: { pageNumber: number; pageSize: number; status?: DeliveryStatus },
  ): Promise<[WebhookDelivery[], number]> {
    const where: FilterQuery<WebhookDelivery> = { organization: orgId }
    if (query.status) where.status = query.status
    return this.em.fork().findAndCount(WebhookDelivery, where, {
      orderBy: { createdAt: 'desc', id: 'asc' },
      limit: query.pageSize,
      offset: pageOffset(query),
    })
  }

  public findForOrg(orgId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return this.em.fork().findOne(WebhookDelivery, { organization: orgId, id: deliveryId })
  }

  /**
   * Makes a delivered or dead delivery of the organization pending again with no attempts, due now; false when
   * it is not in one of those states (any more).
   */
  public async requeue(orgId: string, deliveryId: string): Promise<boolean> {
    const result = await this.connection().execute<{ affectedRows: number }>(
      `update "webhook_deliveries" set "status" = 'pending', "attempts" = 0, "next_attempt_at" = now(),
         "queued_until" = null, "claimed_until" = null, "claim_token" = null, "last_error" = null,
         "last_response_code" = null, "delivered_at" = null, "updated_at" = now()
       where "id" = ? and "organization_id" = ? and "status" in ('delivered', 'dead')`,
      [deliveryId, orgId],
      'run',
    )
    return result.affectedRows === 1
  }

  private connection() {
    return this.em.fork().getConnection()
  }
}
