import { injectable } from 'inversify'
import { Logger } from '@idplane/common'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { ModuleRegistry } from '../../infra/module-registry'
import { ExchangeRecords } from '../../infra/records/exchange-records'
import type { OrderDecision } from '../../infra/records/record-order'
import { WALLET_RECORD_KINDS, type WalletRecord, type WalletRecordKind } from './wallet-record.entity'
import { walletMessageDirectionOf, walletReportMapper, type WalletRecordFields } from './wallet-record.mapper'
import { WalletRecordMetrics } from './wallet-record-metrics'
import { WALLET_RECORD_ORDERS } from './wallet-record.states'
import { CloudWalletsRepository } from './cloud-wallets.repository'
import { WalletRecordsRepository } from './wallet-records.repository'

export type WalletRecordOutcome = OrderDecision | 'no-wallet' | 'not-a-record'

/** The owner of the records being applied: the wallet row and its tenant. */
export interface WalletOwner {
  walletId: string
  tenantId: string
}

/**
 * Keeps each cloud wallet's holder records in step with the base agent (infra/records/exchange-records.ts, with the
 * organization records' state orders), from the agent's tenant events and from the records the agent answers to
 * the wallet's own calls. A record's new state (a basic message's arrival) is published once, with the tenant as
 * owner, so a tenant webhook receives it.
 */
@injectable()
export class WalletRecords {
  private readonly log: Logger

  private readonly kinds: Record<WalletRecordKind, ExchangeRecords<WalletRecord, WalletOwner, WalletRecordFields>>

  public constructor(
    private readonly records: WalletRecordsRepository,
    private readonly wallets: CloudWalletsRepository,
    modules: ModuleRegistry,
    private readonly metrics: WalletRecordMetrics,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'wallet-records' })
    const kindOf = (kind: WalletRecordKind) =>
      new ExchangeRecords<WalletRecord, WalletOwner, WalletRecordFields>(
        {
          name: kind,
          order: WALLET_RECORD_ORDERS[kind],
          mapper: walletReportMapper(kind),
          store: {
            transactional: (work) => records.transactional(work),
            lockOrCreate: (owner, report) => records.lockOrCreate(owner.walletId, kind, report.recordId, report.fields),
          },
          versionOf: (row) =>
            kind === 'basic-message'
              ? { state: walletMessageDirectionOf(row.record), versionAt: row.agentCreatedAt }
              : { state: row.state ?? '', versionAt: row.agentUpdatedAt },
          write: (row, report, decision) => {
            if (kind === 'basic-message' || decision === 'insert' || decision === 'ignore') return
            const { agentCreatedAt: _created, ...fields } = report.fields
            Object.assign(row, fields)
          },
          eventOwner: (owner) => ({ orgId: null, tenantId: owner.tenantId }),
          eventType:
            kind === 'basic-message' ? (row) => `basic-message.${walletMessageDirectionOf(row.record)}` : undefined,
          eventRecord: (row, previousState) =>
            kind === 'basic-message' ? row.record : { ...row.record, previousState },
        },
        modules,
      )
    this.kinds = {
      connection: kindOf('connection'),
      credential: kindOf('credential'),
      proof: kindOf('proof'),
      'basic-message': kindOf('basic-message'),
    }
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
      const wallet = await this.wallets.recentWalletOfTenant(tenantId)
      if (!wallet) {
        this.log.debug('Event of a tenant no wallet owns', { tenantId, eventId: event.id })
        return 'no-wallet'
      }
      const report = this.kinds[kind].reportOf(event.record, event.occurredAt)
      if (!report) return 'not-a-record'
      return (await this.kinds[kind].applyAlone({ walletId: wallet.id, tenantId }, report))?.decision ?? 'not-a-record'
    })
  }

  /**
   * Applies a record the agent answered to one of the wallet's calls (the caller sees its own change at once).
   * Most answers are a holder's poll of a record that has not changed: the row is read first, and only an answer
   * the ordering rule would take goes through the locking write (a new row included, over lockOrCreate).
   */
  public applyAnswered(
    owner: WalletOwner,
    kind: WalletRecordKind,
    record: Record<string, unknown>,
  ): Promise<WalletRecordOutcome> {
    return this.timed('answer', kind, async () => {
      const records = this.kinds[kind]
      const report = records.reportOf(record)
      if (!report) return 'not-a-record'
      const stored = await this.records.findOne(owner.walletId, kind, report.recordId)
      if (stored && !records.reportWouldChange(stored, report)) return 'ignore'
      return (await records.applyAlone(owner, report))?.decision ?? 'not-a-record'
    })
  }

  private async timed(
    source: 'event' | 'answer',
    kind: WalletRecordKind,
    work: () => Promise<WalletRecordOutcome>,
  ): Promise<WalletRecordOutcome> {
    const stop = this.metrics.applySeconds.startTimer({ source })
    try {
      const outcome = await work()
      this.metrics.applied.inc({ kind, outcome })
      return outcome
    } finally {
      stop()
    }
  }
}

/** The wallet record kind of an agent event kind; undefined for kinds wallets do not keep (question-answer). */
export function walletKindOf(kind: string): WalletRecordKind | undefined {
  return (WALLET_RECORD_KINDS as readonly string[]).includes(kind) ? (kind as WalletRecordKind) : undefined
}
