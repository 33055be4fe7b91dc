import type { PlatformEvent } from '../platform-events'
import { ExchangeRecords, OrgExchangeRecords, type ExchangeKind, type ExchangeReport } from './exchange-records'
import { stateOrder } from './record-order'

/** A row kept in memory: the unit edge of the path (the integration tests use the real repositories). */
interface Row {
  id: string
  state: string
  versionAt: Date
  note: string | null
}

const at = (second: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, second))
const ORDER = stateOrder({ started: 1, middle: 2, done: 3 }, ['done'])

function kindWith(rows: Map<string, Row>): ExchangeKind<Row, string, { note: string | null }> {
  return {
    name: 'probe',
    order: ORDER,
    mapper: (record, occurredAt): ExchangeReport<{ note: string | null }> | null =>
      typeof record.id === 'string' && typeof record.state === 'string'
        ? {
            recordId: record.id,
            state: record.state,
            versionAt: new Date(typeof record.updatedAt === 'string' ? record.updatedAt : occurredAt),
            fields: { note: typeof record.note === 'string' ? record.note : null },
          }
        : null,
    store: {
      transactional: (work) => work(),
      lockOrCreate: async (owner, report) => {
        if (owner === 'stranger') return null
        const stored = rows.get(report.recordId)
        if (stored) return { row: stored, isNew: false, save: async () => undefined }
        const row = { id: report.recordId, state: report.state, versionAt: report.versionAt, note: report.fields.note }
        rows.set(row.id, row)
        return { row, isNew: true, save: async () => undefined }
      },
    },
    versionOf: (row) => ({ state: row.state, versionAt: row.versionAt }),
    write: (row, report, decision) => {
      if (decision === 'ignore') return
      Object.assign(row, { state: report.state, versionAt: report.versionAt, note: report.fields.note })
    },
    eventOwner: (orgId) => ({ orgId }),
    eventRecord: (row, previousState) => ({ id: row.id, state: row.state, previousState }),
  }
}

describe('ExchangeRecords', () => {
  let rows: Map<string, Row>
  let published: PlatformEvent[]
  let records: OrgExchangeRecords<Row, { note: string | null }>

  beforeEach(() => {
    rows = new Map()
    published = []
    records = new OrgExchangeRecords(kindWith(rows), { publish: async (events) => void published.push(...events) })
  })

  const report = (state: string, second: number, note: string | null = null) => ({
    id: 'r1',
    state,
    updatedAt: at(second).toISOString(),
    ...(note === null ? {} : { note }),
  })

  it('inserts a new record and announces it as <kind>.state-changed', async () => {
    const outcome = await records.applyRecord('org-1', report('started', 1))
    expect(outcome?.decision).toBe('insert')
    expect(published).toEqual([
      expect.objectContaining({
        type: 'probe.state-changed',
        orgId: 'org-1',
        record: { id: 'r1', state: 'started', previousState: null },
      }),
    ])
  })

  it('advances, refreshes without an event, and ignores older and backward reports', async () => {
    await records.applyRecord('org-1', report('started', 1))
    expect((await records.applyRecord('org-1', report('middle', 2)))?.decision).toBe('advance')
    expect((await records.applyRecord('org-1', report('middle', 3, 'newer')))?.decision).toBe('refresh')
    expect((await records.applyRecord('org-1', report('started', 9)))?.decision).toBe('ignore')
    expect((await records.applyRecord('org-1', report('middle', 3, 'newer')))?.decision).toBe('ignore')
    expect(rows.get('r1')).toEqual({ id: 'r1', state: 'middle', versionAt: at(3), note: 'newer' })
    expect(published.map((event) => event.record.previousState)).toEqual([null, 'started'])
  })

  it('merges what the platform knows of an answered record, without letting undefined erase the report', async () => {
    const outcome = await records.applyAnswered('org-1', report('started', 1, 'from the agent'), { note: undefined })
    expect(outcome?.row.note).toBe('from the agent')
    await records.applyAnswered('org-1', report('middle', 2), { note: 'from the route' })
    expect(rows.get('r1')?.note).toBe('from the route')
  })

  it('answers null for JSON that is no record and for a record the owner may not have, and publishes nothing', async () => {
    expect(await records.applyRecord('org-1', { state: 'started' })).toBeNull()
    expect(await records.applyRecord('stranger', report('started', 1))).toBeNull()
    expect(published).toEqual([])
  })

  it('tells whether a record would change the stored row, without touching it', async () => {
    const applied = await records.applyRecord('org-1', report('middle', 2))
    if (!applied) throw new Error('the report was not applied')
    const { row } = applied
    expect(records.wouldChange(row, report('done', 3))).toBe(true)
    expect(records.wouldChange(row, report('started', 3))).toBe(false)
    expect(row.state).toBe('middle')
  })

  it("leaves a cloud-wallet tenant's events to the cloud-wallet module", async () => {
    await records.handle('org-1', {
      id: 'e1',
      kind: 'connection',
      agentLabel: 'a',
      tenantId: 't1',
      occurredAt: at(1).toISOString(),
      record: report('started', 1),
    })
    await records.handle('org-1', {
      id: 'e2',
      kind: 'connection',
      agentLabel: 'a',
      occurredAt: at(1).toISOString(),
      record: report('started', 1),
    })
    expect(published.map((event) => event.orgId)).toEqual(['org-1'])
  })

  it('uses a kind’s own event type and owner', async () => {
    const kind = {
      ...kindWith(rows),
      eventType: () => 'probe.sent',
      eventOwner: () => ({ orgId: null, tenantId: 't1' }),
    }
    const tenantRecords = new ExchangeRecords(kind, { publish: async (events) => void published.push(...events) })
    await tenantRecords.applyRecord('wallet-1', report('started', 1))
    expect(published).toEqual([expect.objectContaining({ type: 'probe.sent', orgId: null, tenantId: 't1' })])
  })
})
