import { injectable } from 'inversify'
import type { FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { pageOffset } from '../../infra/http/pagination'
import type { Claimed, OutboxClaim } from '../../infra/outbox/outbox-relay'
import { WebhookDelivery, type DeliveryStatus, type DeliveryTarget } from './webhook-delivery.entity'
import type { WebhookEventData } from './webhook-request'
import { OrgRepository } from '../../infra/db/base.repository'
import { timeOrderedId } from '../../infra/db/time-ordered-id'
import { PreparedStatement } from '../../infra/db/prepared-statement'

/** The claim's owner bound when none is asked for (no owner holds this many claims). */
const UNLIMITED = 2_147_483_647
/**
 * Due rows a claim ranks by owner, oldest first among owners below their limit (so an owner at its limit never
 * hides another's rows behind its own): the sort's bound (ranking all of 20,000 due rows took 73 ms).
 */
const RANKED_HEAD = 1_000

/**
 * A batch of events' deliveries (addForEvents): the events as one JSON parameter, in order ("position"), each joined
 * to its owner's targets.
 */
const ADD_FOR_EVENTS = new PreparedStatement(
  'webhook_deliveries_add_for_events',
  `with "event" as (
     select * from rows from (jsonb_to_recordset(?::jsonb) as ("event_id" text, "event_type" text,
       "organization_id" uuid, "tenant_id" text, "payload" jsonb, "occurred_at" timestamptz, "id_1" uuid, "id_2" uuid,
       "id_3" uuid)) with ordinality
       as "e" ("event_id", "event_type", "organization_id", "tenant_id", "payload", "occurred_at", "id_1", "id_2", "id_3",
         "position")),
   "target" as (
     select "e".*, "w"."id" as "webhook_id", 'webhook' as "target", "w"."url" as "target_url", 0 as "kind",
       "w"."created_at" as "registered_at"
     from "event" "e" join "webhooks" "w" on "w"."organization_id" = "e"."organization_id" or "w"."tenant_id" = "e"."tenant_id"
     union all
     select "e".*, null, 'notificationWebhook', "o"."notification_webhook", 1, null
     from "event" "e" join "organizations" "o" on "o"."id" = "e"."organization_id"
     where "o"."notification_webhook" is not null),
   -- One per event and URL: the registered webhook when the notificationWebhook is the same URL.
   "distinct_target" as (
     select distinct on ("position", "target_url") * from "target"
     order by "position", "target_url", "kind", "registered_at", "webhook_id"),
   "numbered" as (
     select *, row_number() over (partition by "position" order by "kind", "registered_at", "webhook_id") as "n"
     from "distinct_target"),
   -- The moment of writing, once for the statement (now() is when the transaction began: a transaction that waited
   -- for another's row lock would queue its deliveries before the other's).
   "written" as (select clock_timestamp() as "at")
   insert into "webhook_deliveries" ("id", "event_id", "event_type", "organization_id", "tenant_id", "webhook_id",
     "target", "target_url", "payload", "occurred_at", "status", "attempts", "next_attempt_at", "created_at",
     "updated_at")
   select case "n" when 1 then "id_1" when 2 then "id_2" else "id_3" end, "event_id", "event_type",
     "organization_id", "tenant_id", "webhook_id", "target", "target_url", "payload", "occurred_at", 'pending', 0,
     "written"."at", "written"."at", "written"."at"
   from "numbered" cross join "written" order by "position", "n"
   on conflict ("event_id", "target_url") do nothing
   returning "id"`,
)

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
  | { kind: 'retry'; status?: number; error: string; url: string; retryInMs: number }
  | { kind: 'dead'; status?: number; error: string; url: string }

/**
 * The deliveries' queries. Times come from the database clock (`now()`), so replicas agree on leases. Claims
 * use `for update skip locked`, so two relays never attempt one delivery at once.
 */
@injectable()
export class WebhookDeliveriesRepository extends OrgRepository<WebhookDelivery> {
  public constructor(em: EntityManager) {
    super(em, WebhookDelivery)
  }

  /**
   * Stores, in the current transaction, one delivery per event and target, looked up in the same statement: the
   * webhooks registered by the event's organization or tenant (oldest first), then the organization's
   * `notificationWebhook`. A URL that is two of these gets the event once, as the registered webhook's (signed when
   * it has a secret); an event already stored for a URL adds nothing. The deliveries are due from the moment they are
   * written (the statement's clock, so a transaction that waited for another's lock queues after it) and their ids
   * keep the events' order, then the targets'. One statement per batch of events, not a lookup per owner and an
   * insert.
   * @returns how many deliveries were stored
   */
  public async addForEvents(events: readonly WebhookEventData[]): Promise<number> {
    if (events.length === 0) return 0
    // An owner has at most three targets (one registered webhook per organization and per tenant, both unique, and
    // the notificationWebhook): three ids per event, made here so that they sort in the order written.
    const batch = events.map((data) => ({
      event_id: data.id,
      event_type: data.type,
      organization_id: data.orgId,
      tenant_id: data.tenantId ?? null,
      payload: data,
      occurred_at: data.occurredAt,
      id_1: timeOrderedId(),
      id_2: timeOrderedId(),
      id_3: timeOrderedId(),
    }))
    const { rows } = await this.runPreparedInTransaction<{ id: string }>(ADD_FOR_EVENTS, [JSON.stringify(batch)])
    return rows.length
  }

  /**
   * Claims the due pending deliveries that waited longest, up to `claim.max`, each for one attempt of
   * `claim.leaseSeconds`, with its registered webhook's current URL and sealed secret (one statement, not a second
   * read per attempt); oldest first, none when nothing is due. With `claim.perOwnerLimit`, no owner (organization, or
   * tenant for tenant events) ends up holding more live claims than that: an owner at its limit is passed over, and
   * another's rows are ranked after the claims it already holds, so one slow receiver never holds every slot.
   * `isMoreDue` when due rows were left unclaimed (beyond `max`, passed over, or locked by another relay).
   */
  public async claimDue(claim: OutboxClaim): Promise<Claimed<ClaimedDelivery>> {
    const { rows } = await this.runPrepared<ClaimRow>(CLAIM, claimParams(claim))
    return claimedOf(rows)
  }

  /**
   * Records delivered attempts under their claims and claims the next due deliveries as claimDue does, in one
   * statement (the relay's round trip after its POSTs). The recorded rows' claims count as ended for the per-owner
   * limit. `recordedIds`: the deliveries whose claims still held (a lost claim records nothing).
   */
  public async recordDeliveredAndClaimDue(
    delivered: readonly { id: string; claimToken: string; status: number; url: string }[],
    claim: OutboxClaim,
  ): Promise<{ recordedIds: Set<string>; claimed: Claimed<ClaimedDelivery> }> {
    const { rows } = await this.runPrepared<ClaimRow & { recorded: string | null }>(RECORD_DELIVERED_AND_CLAIM, [
      delivered.map((attempt) => attempt.id),
      delivered.map((attempt) => attempt.claimToken),
      delivered.map((attempt) => attempt.url),
      delivered.map((attempt) => attempt.status),
      ...claimParams(claim),
    ])
    return { recordedIds: new Set(rows[0]?.recorded?.split(',') ?? []), claimed: claimedOf(rows) }
  }

  /** Records an attempt under its claim; false when the claim was lost (the hold ran out). */
  public async record(id: string, claimToken: string, attempt: AttemptRecord): Promise<boolean> {
    const { rowCount } = await this.runPrepared(...recordStatement(id, claimToken, attempt))
    return rowCount === 1
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
   * Makes a delivered or dead delivery of the organization pending again with no attempts, due now, and answers it
   * as that statement left it (a relay may claim it the moment it is due); null when it is not in one of those states
   * (any more).
   */
  public async requeue(orgId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const rows = await this.connection().execute<Record<string, unknown>[]>(
      `update "webhook_deliveries" set "status" = 'pending', "attempts" = 0, "next_attempt_at" = now(),
         "claimed_until" = null, "claim_token" = null, "last_error" = null,
         "last_response_code" = null, "delivered_at" = null, "updated_at" = now()
       where "id" = ? and "organization_id" = ? and "status" in ('delivered', 'dead')
       returning *`,
      [deliveryId, orgId],
      'all',
    )
    return rows[0] ? this.em.fork().map(WebhookDelivery, rows[0]) : null
  }

  /**
   * Deletes at most `limit` finished deliveries (delivered or dead) whose last attempt is more than
   * `retentionSeconds` old, oldest first (a retention batch, through the partial index of finished rows); pending
   * ones stay whatever their age. Resolves with how many.
   */
  public pruneFinished(retentionSeconds: number, limit: number): Promise<number> {
    return this.deleteBatch(
      `"status" <> 'pending' and "updated_at" < now() - make_interval(secs => ?)`,
      [retentionSeconds],
      '"updated_at"',
      limit,
    )
  }

  /** Calls `listener` after each transaction this process commits (the relay's early look at new deliveries). */
  public onCommit(listener: () => void): void {
    this.em.getEventManager().registerSubscriber({ afterTransactionCommit: listener })
  }

  private connection() {
    return this.em.fork().getConnection()
  }
}

/** What a claim statement answers per row (claimAnswer): the claim's columns are null when it claimed nothing. */
interface ClaimRow {
  more_due: boolean
  id: string
  target: DeliveryTarget
  target_url: string
  webhook_id: string | null
  payload: WebhookEventData | string
  occurred_at: Date | string
  attempts: number
  webhook_url: string | null
  webhook_sealed_secret: string | null
}

/** The columns a delivered attempt sets besides FINISHED_ATTEMPT's. */
const DELIVERED = `"status" = 'delivered', "delivered_at" = now(), "last_error" = null`

/** The columns every recorded attempt sets (parameters: the URL, the answer's status). */
const FINISHED_ATTEMPT = `"claimed_until" = null, "claim_token" = null, "target_url" = ?, "last_response_code" = ?,
  "updated_at" = now()`

/**
 * The steps of a claim, as `with` items ending in "claimed" (the claimed rows). `ending` (a condition on `"d"`)
 * leaves out rows whose claim ends in the same statement: not counted as live claims, not claimed again. A window function cannot sit beside FOR
 * UPDATE: the owners' ranks come first ("ranked"), then the rows to claim ("chosen"), then their locks (a row another
 * replica holds is skipped: a smaller claim, never a larger).
 */
function claimSteps(ending = ''): string {
  return `"live" as (
     select "d"."organization_id", "d"."tenant_id", count(*) as "held" from "webhook_deliveries" "d"
     where "d"."status" = 'pending' and "d"."claimed_until" >= now() ${ending}
     group by "d"."organization_id", "d"."tenant_id"),
   "head" as (
     select "d"."id", "d"."organization_id", "d"."tenant_id", "d"."next_attempt_at", "d"."created_at",
       coalesce("l"."held", 0) as "held"
     from "webhook_deliveries" "d"
     left join "live" "l" on "l"."organization_id" is not distinct from "d"."organization_id"
       and "l"."tenant_id" is not distinct from "d"."tenant_id"
     where "d"."status" = 'pending' and "d"."next_attempt_at" <= now()
       and ("d"."claimed_until" is null or "d"."claimed_until" < now()) and coalesce("l"."held", 0) < ? ${ending}
     order by "d"."next_attempt_at", "d"."created_at", "d"."id" limit ?),
   "ranked" as (
     select "id", "next_attempt_at", "created_at",
       "held" + row_number() over (
         partition by "organization_id", "tenant_id" order by "next_attempt_at", "created_at", "id") as "slot"
     from "head"),
   "chosen" as (
     select "id", "next_attempt_at", "created_at" from "ranked" where "slot" <= ?
     order by "next_attempt_at", "created_at", "id" limit ?),
   "candidate" as (
     select "d"."id", "c"."next_attempt_at", "c"."created_at" from "webhook_deliveries" "d"
     join "chosen" "c" on "c"."id" = "d"."id"
     -- Checked again on the row as locked: another replica may have claimed it since this statement began.
     where "d"."status" = 'pending' and ("d"."claimed_until" is null or "d"."claimed_until" < now())
     for update of "d" skip locked),
   "claimed" as (
     update "webhook_deliveries" set "attempts" = "attempts" + 1, "claim_token" = ?,
       "claimed_until" = now() + make_interval(secs => ?), "updated_at" = now()
     from "candidate" where "webhook_deliveries"."id" = "candidate"."id"
     returning "webhook_deliveries"."id", "target", "target_url", "webhook_id", "payload", "occurred_at",
       "attempts", "candidate"."next_attempt_at" as "due_at", "candidate"."created_at" as "queued_at")`
}

/** The claimed rows with their registered webhook's current URL and sealed secret. */
const CLAIMED_WITH_WEBHOOK = `select "claimed".*, "w"."url" as "webhook_url", "w"."sealed_secret" as "webhook_sealed_secret"
  from "claimed" left join "webhooks" "w" on "w"."id" = "claimed"."webhook_id"`

/**
 * Whether due rows were left unclaimed. The statement's snapshot still shows its own claims unclaimed, so they are
 * left out by id; a row whose claim is recorded in the statement was claimed when it began, so it is not due.
 */
const MORE_DUE = `exists (select 1 from "webhook_deliveries" "m"
  where "m"."status" = 'pending' and "m"."next_attempt_at" <= now()
    and ("m"."claimed_until" is null or "m"."claimed_until" < now()) and "m"."id" not in (select "id" from "claimed"))`

/**
 * A claim's answer after claimSteps: one row when it claimed nothing (the claim's columns null), else one per claimed
 * row, oldest first; each with `more_due` and `columns` (a select list's head, ending in a comma).
 */
function claimAnswer(columns = ''): string {
  return `select ${columns} ${MORE_DUE} as "more_due", "next".* from (select 1) as "one"
    left join (${CLAIMED_WITH_WEBHOOK}) as "next" on true
    order by "next"."due_at", "next"."queued_at", "next"."id"`
}

function claimedOf(rows: readonly ClaimRow[]): Claimed<ClaimedDelivery> {
  return { items: rows.filter((row) => row.id !== null).map(claimedDelivery), isMoreDue: rows[0]?.more_due === true }
}

/** claimSteps' parameters, in order. */
function claimParams(claim: OutboxClaim): unknown[] {
  const limit = claim.perOwnerLimit ?? UNLIMITED
  return [limit, RANKED_HEAD, limit, claim.max, claim.token, claim.leaseSeconds]
}

function claimedDelivery(row: ClaimRow): ClaimedDelivery {
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

/** claimDue's statement. */
const CLAIM = new PreparedStatement('webhook_deliveries_claim', `with ${claimSteps()} ${claimAnswer()}`)

/** recordDeliveredAndClaimDue's: the attempts come as four arrays of one length (ids, claim tokens, URLs, statuses). */
const RECORD_DELIVERED_AND_CLAIM = new PreparedStatement(
  'webhook_deliveries_record_and_claim',
  `with "attempt" ("id", "claim_token", "url", "status") as (
     select * from unnest(?::uuid[], ?::uuid[], ?::text[], ?::integer[])),
   "recorded" as (
     update "webhook_deliveries" set ${DELIVERED}, "claimed_until" = null, "claim_token" = null,
       "target_url" = "attempt"."url", "last_response_code" = "attempt"."status", "updated_at" = now()
     from "attempt"
     where "webhook_deliveries"."id" = "attempt"."id" and "webhook_deliveries"."claim_token" = "attempt"."claim_token"
     returning "webhook_deliveries"."id"),
   ${claimSteps(`and "d"."id" not in (select "id" from "recorded")`)}
   ${claimAnswer(`(select string_agg("id"::text, ',') from "recorded") as "recorded",`)}`,
)

/** record's statement for the attempt's outcome, with its values. */
function recordStatement(id: string, claimToken: string, attempt: AttemptRecord): [PreparedStatement, unknown[]] {
  const status = attempt.status ?? null
  switch (attempt.kind) {
    case 'delivered':
      return [RECORD_DELIVERED, [attempt.url, status, id, claimToken]]
    case 'dead':
      return [RECORD_DEAD, [attempt.error, attempt.url, status, id, claimToken]]
    case 'retry':
      return [RECORD_RETRY, [attempt.error, attempt.retryInMs / 1000, attempt.url, status, id, claimToken]]
  }
}

/** record's, one per outcome (parameters: FINISHED_ATTEMPT's, then the id and the claim token). */
const RECORD_DELIVERED = new PreparedStatement(
  'webhook_deliveries_record_delivered',
  `update "webhook_deliveries" set ${DELIVERED}, ${FINISHED_ATTEMPT} where "id" = ?::uuid and "claim_token" = ?::uuid`,
)
const RECORD_DEAD = new PreparedStatement(
  'webhook_deliveries_record_dead',
  `update "webhook_deliveries" set "status" = 'dead', "last_error" = ?, ${FINISHED_ATTEMPT}
   where "id" = ?::uuid and "claim_token" = ?::uuid`,
)
const RECORD_RETRY = new PreparedStatement(
  'webhook_deliveries_record_retry',
  `update "webhook_deliveries" set "last_error" = ?, "next_attempt_at" = now() + make_interval(secs => ?::double precision),
     ${FINISHED_ATTEMPT} where "id" = ?::uuid and "claim_token" = ?::uuid`,
)
