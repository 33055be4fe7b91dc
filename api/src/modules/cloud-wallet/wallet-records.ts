import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { Logger } from '@idplane/common'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import {
  decideUpdate,
  textOf,
  versionTimeOf,
  type OrderDecision,
  type StateOrder,
} from '../../infra/records/record-order'
import { CONNECTION_ORDER } from '../connections/connection.states'
import { ISSUANCE_ORDER } from '../credentials/credential.states'
import { PROOF_ORDER } from '../proofs/proof.states'
import {
  WALLET_RECORD_KINDS,
  WALLET_RECORD_LIMITS,
  type WalletRecord,
  type WalletRecordKind,
} from './wallet-record.entity'
import { WalletRecordMetrics } from './wallet-record-metrics'
import { WalletRecordsRepository } from './wallet-records.repository'

/** The state orders of the kinds that have states (the organization modules' own, so both sides agree). */
const ORDERS: Record<Exclude<WalletRecordKind, 'basic-message'>, StateOrder> = {
  connection: CONNECTION_ORDER,
  credential: ISSUANCE_ORDER,
  proof: PROOF_ORDER,
}

/** The platform event a record's new state is announced with (the names organization records use). */
const STATE_CHANGED: Record<Exclude<WalletRecordKind, 'basic-message'>, string> = {
  connection: 'connection.state-changed',
  credential: 'credential.state-changed',
  proof: 'proof.state-changed',
}

export type WalletRecordOutcome = OrderDecision | 'no-wallet' | 'not-a-record'

/** The owner of the records being applied: the wallet row and its tenant. */
export interface WalletOwner {
  walletId: string
  tenantId: string
}

/**
 * Keeps each cloud wallet's holder records in step with the base agent, by the ordering rule of organization
 * records (record-order.ts): from the agent's tenant events and from the records the agent answers to the wallet's
 * own calls. A late or repeated report never moves a record backwards; a record's new state (a basic message's
 * arrival) is published once, with the tenant as owner, so a tenant webhook receives it.
 */
@injectable()
export class WalletRecords {
  private readonly log: Logger

  public constructor(
    private readonly records: WalletRecordsRepository,
    private readonly modules: ModuleRegistry,
    private readonly metrics: WalletRecordMetrics,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'wallet-records' })
  }

  /**
   * Applies one base-agent event in a transaction of its own. Events of the agent's own wallet (no `tenantId`),
   * of a tenant no wallet owns, and of kinds wallets do not keep are acknowledged and dropped.
   */
  public async applyEvent(event: AgentEvent): Promise<WalletRecordOutcome> {
    const kind = walletKindOf(event.kind)
    if (event.tenantId === undefined || kind === undefined) return 'not-a-record'
    const tenantId = event.tenantId
    return this.timed('event', kind, async () => {
      const wallet = await this.records.findWalletByTenant(tenantId)
      if (!wallet) {
        this.log.debug('Event of a tenant no wallet owns', { tenantId, eventId: event.id })
        return 'no-wallet'
      }
      return this.apply({ walletId: wallet.id, tenantId }, kind, event.record, event.occurredAt)
    })
  }

  /** Applies a record the agent answered to one of the wallet's calls (the caller sees its own change at once). */
  public applyAnswered(
    owner: WalletOwner,
    kind: WalletRecordKind,
    record: Record<string, unknown>,
  ): Promise<WalletRecordOutcome> {
    return this.timed('answer', kind, () => this.apply(owner, kind, record, new Date().toISOString()))
  }

  /**
   * One transaction; an insert that lost a race with a report of the same new record (unique key) is run once
   * more, and then finds the row.
   */
  private async timed(
    source: 'event' | 'answer',
    kind: WalletRecordKind,
    work: () => Promise<WalletRecordOutcome>,
  ): Promise<WalletRecordOutcome> {
    const stop = this.metrics.applySeconds.startTimer({ source })
    const attempt = () => this.records.transactional(work)
    try {
      const outcome = await attempt().catch((error: unknown) => {
        if (error instanceof UniqueConstraintViolationException) return attempt()
        throw error
      })
      this.metrics.applied.inc({ kind, outcome })
      return outcome
    } finally {
      stop()
    }
  }

  private async apply(
    owner: WalletOwner,
    kind: WalletRecordKind,
    record: Record<string, unknown>,
    occurredAt: string,
  ): Promise<WalletRecordOutcome> {
    const recordId = textOf(record, 'id', WALLET_RECORD_LIMITS.id)
    if (!recordId) return 'not-a-record'
    const versionAt = versionTimeOf(record, occurredAt)
    const stored = await this.records.findForUpdate(owner.walletId, kind, recordId)
    if (kind === 'basic-message') return this.applyMessage(owner, recordId, record, versionAt, stored)
    const state = textOf(record, 'state', WALLET_RECORD_LIMITS.state)
    if (!state) return 'not-a-record'
    const decision = decideUpdate(
      ORDERS[kind],
      stored && { state: stored.state ?? '', versionAt: stored.agentUpdatedAt },
      { state, versionAt },
    )
    if (decision === 'ignore') return decision
    const previousState = stored?.state ?? null
    const row = this.upsert(owner, kind, recordId, stored, { state, record, versionAt })
    await this.records.flush()
    if (previousState !== state) {
      await this.modules.publish([
        platformEvent(STATE_CHANGED[kind], { orgId: null, tenantId: owner.tenantId }, { ...row.record, previousState }),
      ])
    }
    return decision
  }

  /** A basic message has no state: the first report stores it and announces it; any later one is a repeat. */
  private async applyMessage(
    owner: WalletOwner,
    recordId: string,
    record: Record<string, unknown>,
    versionAt: Date,
    stored: WalletRecord | null,
  ): Promise<WalletRecordOutcome> {
    if (stored) return 'ignore'
    const row = this.upsert(owner, 'basic-message', recordId, null, { state: null, record, versionAt })
    await this.records.flush()
    const type = record.role === 'sender' ? 'basic-message.sent' : 'basic-message.received'
    await this.modules.publish([platformEvent(type, { orgId: null, tenantId: owner.tenantId }, row.record)])
    return 'insert'
  }

  private upsert(
    owner: WalletOwner,
    kind: WalletRecordKind,
    recordId: string,
    stored: WalletRecord | null,
    change: { state: string | null; record: Record<string, unknown>; versionAt: Date },
  ): WalletRecord {
    const fields = {
      state: change.state,
      connectionId: textOf(change.record, 'connectionId', WALLET_RECORD_LIMITS.id),
      threadId: textOf(change.record, 'threadId', WALLET_RECORD_LIMITS.id),
      agentUpdatedAt: change.versionAt,
      // NUL characters (which PostgreSQL json cannot hold) never get here: every JSON body refuses them.
      record: change.record,
    }
    if (stored) return Object.assign(stored, fields)
    const createdAt = versionTimeOf({ createdAt: change.record.createdAt }, change.versionAt.toISOString())
    return this.records.create(owner.walletId, { kind, recordId, agentCreatedAt: createdAt, ...fields })
  }
}

/** The wallet record kind of an agent event kind; undefined for kinds wallets do not keep (question-answer). */
export function walletKindOf(kind: string): WalletRecordKind | undefined {
  return (WALLET_RECORD_KINDS as readonly string[]).includes(kind) ? (kind as WalletRecordKind) : undefined
}
