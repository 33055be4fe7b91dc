import type { AgentEventHandler, AppliedAgentEvent } from '../api-module'
import type { LockedRow } from '../db/base.repository'
import { platformEvent, type PlatformEvent } from '../platform-events'
import { decideUpdate, type OrderDecision, type RecordVersion, type StateOrder } from './record-order'

/**
 * The one path an agent's report of an exchange record (connection, issuance, proof, question, message, a cloud
 * wallet's holder records) takes into the platform:
 *
 *   agent JSON → the kind's mapper (a report) → lock or create the row → the ordering decision (record-order.ts)
 *   → the kind writes its fields → the row saved → publish `<kind>.state-changed`
 *
 * Each kind declares an ExchangeKind: its mapper (pure, unit-tested), its state order, how its row is stored and
 * shown. This file is the only place state events of exchange records leave from (docs/architecture.md).
 */

/** What a kind's mapper reads from one agent record: pure data, no row. */
export interface ExchangeReport<Fields> {
  /** The agent's record id: with the owner, the key of the row. */
  recordId: string
  state: string
  /** The agent record's version time (record-order.ts, versionTimeOf). */
  versionAt: Date
  /** The columns the kind keeps, as this report gives them. */
  fields: Fields
}

/** Agent JSON → a report; null when the JSON is no usable record of the kind. Pure. */
export type ExchangeMapper<Fields> = (
  record: Record<string, unknown>,
  occurredAt: string,
) => ExchangeReport<Fields> | null

/** The repository methods the path needs. */
export interface ExchangeStore<Row, Owner, Fields> {
  /** Runs `work` in one transaction (or joins the caller's). */
  transactional<T>(work: () => Promise<T>): Promise<T>
  /**
   * The owner's row of the reported record, locked until the transaction ends; inserted from the report when there
   * is none (`isNew`). Null when the owner may not have this record (it is another owner's, or the owner deleted it).
   * Two reports of one new record race to create it: the store ends the race in one row, the loser locking the
   * winner's (its repository's `lockOrCreate`, over BaseRepository.lockOrCreateRow). `save` writes what the kind
   * changed on the row (BaseRepository.saveExchange).
   */
  lockOrCreate(owner: Owner, report: ExchangeReport<Fields>): Promise<LockedRow<Row> | null>
}

/** Who an event is about: an organization, or a cloud-wallet tenant. */
export interface EventOwner {
  orgId: string | null
  tenantId?: string
}

/** One kind of exchange record, as the path needs to know it. */
export interface ExchangeKind<Row, Owner, Fields> {
  /** The `<kind>` of `<kind>.state-changed`. */
  name: string
  order: StateOrder
  mapper: ExchangeMapper<Fields>
  store: ExchangeStore<Row, Owner, Fields>
  /** The stored row's state and version. */
  versionOf(row: Row): RecordVersion
  /**
   * Writes a report on the row by the ordering decision: a new row (`insert`) and a new state (`advance`) take the
   * report; `refresh` takes newer data of the same state; on `ignore` a kind may still fill facts it lacks.
   */
  write(row: Row, report: ExchangeReport<Fields>, decision: OrderDecision): void
  /** The organization or tenant the event belongs to. */
  eventOwner(owner: Owner): EventOwner
  /** The event's record: the row as the API shows it in a single read. */
  eventRecord(row: Row, previousState: string | null): Record<string, unknown>
  /** The event type when it is not `<name>.state-changed` (a basic message is `sent` or `received`). */
  eventType?(row: Row): string
  /** Called for each announced change (metrics). */
  onAnnounced?(row: Row): void
  /** Called for an agent event whose record is no usable record of the kind (the kind logs what it lacks). */
  onUnusable?(owner: Owner): void
}

/** Where events go: ModuleRegistry.publish, in the caller's transaction. */
export interface EventPublisher {
  publish(events: readonly PlatformEvent[]): Promise<void>
}

/** A report applied: the row as it is now and what the ordering rule decided. */
export interface ExchangeOutcome<Row> {
  row: Row
  decision: OrderDecision
}

/** The event type of a kind's state changes. */
export function stateChangedType(kind: string): string {
  return `${kind}.state-changed`
}

/** Applies agent reports of one kind (the path above). */
export class ExchangeRecords<Row, Owner, Fields> {
  public constructor(
    protected readonly kind: ExchangeKind<Row, Owner, Fields>,
    private readonly events: EventPublisher,
  ) {}

  /**
   * The kind's report of an agent record (its mapper), with `extra`: what the platform knows of the record and the
   * agent does not (set members only); null when the JSON is no usable record of the kind.
   */
  public reportOf(
    record: Record<string, unknown>,
    occurredAt = new Date().toISOString(),
    extra: Partial<Fields> = {},
  ): ExchangeReport<Fields> | null {
    const report = this.kind.mapper(record, occurredAt)
    return report && { ...report, fields: { ...report.fields, ...definedOnly(extra) } }
  }

  /**
   * Applies a report in the caller's transaction; null when the owner may not have the record. Announces the
   * change once when the record is new or enters another state.
   */
  public async apply(owner: Owner, report: ExchangeReport<Fields>): Promise<ExchangeOutcome<Row> | null> {
    const locked = await this.kind.store.lockOrCreate(owner, report)
    if (!locked) return null
    const { row, isNew } = locked
    const stored = isNew ? null : this.kind.versionOf(row)
    const decision = decideUpdate(this.kind.order, stored, { state: report.state, versionAt: report.versionAt })
    this.kind.write(row, report, decision)
    await locked.save()
    if (decision === 'insert' || decision === 'advance') {
      this.kind.onAnnounced?.(row)
      const type = this.kind.eventType?.(row) ?? stateChangedType(this.kind.name)
      const record = this.kind.eventRecord(row, stored?.state ?? null)
      await this.events.publish([platformEvent(type, this.kind.eventOwner(owner), record)])
    }
    return { row, decision }
  }

  /**
   * Applies an agent record (an event's, or an answer's with `extra`) in the caller's transaction; null for no
   * usable record or no row.
   */
  public async applyRecord(
    owner: Owner,
    record: Record<string, unknown>,
    occurredAt = new Date().toISOString(),
    extra: Partial<Fields> = {},
  ): Promise<ExchangeOutcome<Row> | null> {
    const report = this.reportOf(record, occurredAt, extra)
    return report ? this.apply(owner, report) : null
  }

  /** Applies a record the agent answered to a call, in a transaction of its own (applyAlone). */
  public async applyAnswered(
    owner: Owner,
    record: Record<string, unknown>,
    extra: Partial<Fields> = {},
  ): Promise<ExchangeOutcome<Row> | null> {
    const report = this.reportOf(record, new Date().toISOString(), extra)
    return report ? this.applyAlone(owner, report) : null
  }

  /**
   * Applies a report in a transaction of its own. Another report of the same new record may be inserting it at the
   * same moment: the store's lockOrCreate waits for it and locks its row, so nothing here is run twice.
   */
  public applyAlone(owner: Owner, report: ExchangeReport<Fields>): Promise<ExchangeOutcome<Row> | null> {
    return this.kind.store.transactional(() => this.apply(owner, report))
  }

  /** Whether the agent's record would change the stored row (the ordering rule), without touching the row. */
  public wouldChange(row: Row, record: Record<string, unknown>): boolean {
    const report = this.kind.mapper(record, new Date().toISOString())
    return report !== null && this.reportWouldChange(row, report)
  }

  /**
   * Whether a report would change the stored row (the ordering rule), without touching the row. A row read without
   * the lock may be older than the locked one, never newer: a report it ignores, the current row ignores too.
   */
  public reportWouldChange(row: Row, report: ExchangeReport<Fields>): boolean {
    const decision = decideUpdate(this.kind.order, this.kind.versionOf(row), {
      state: report.state,
      versionAt: report.versionAt,
    })
    return decision !== 'ignore'
  }
}

/**
 * The records of an organization's exchanges, kept from its agent's events of one kind. A cloud-wallet tenant's
 * events (`tenantId`) are the holder's, not the organization's: the cloud-wallet module keeps those.
 */
export class OrgExchangeRecords<Row, Fields> extends ExchangeRecords<Row, string, Fields> implements AgentEventHandler {
  /** Agent event handler: runs in the transaction that stores the event. */
  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    const report = this.eventReport(orgId, event)
    if (report) await this.apply(orgId, report)
  }

  /** The report of an organization's event; null for a tenant's event or no usable record (told to the kind). */
  protected eventReport(orgId: string, event: AppliedAgentEvent): ExchangeReport<Fields> | null {
    if (event.tenantId !== undefined) return null
    const report = this.reportOf(event.record, event.occurredAt)
    if (!report) this.kind.onUnusable?.(orgId)
    return report
  }
}

/** `values` without its undefined members (they would overwrite what is there: the report's, a column's default). */
export function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}
