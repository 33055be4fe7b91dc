import { Registry } from 'prom-client'
import { statementCounter } from './statement-metrics'

describe('statementCounter', () => {
  it('counts statements by their first word, any other word as other', async () => {
    const registry = new Registry()
    const count = statementCounter(registry)
    for (const sql of ['select 1', '  SELECT * from t', 'insert into t', 'update t set', 'delete from t']) count(sql)
    for (const sql of ['with "a" as (select 1) select 1', 'set names ?', 'savepoint "trx1"', '']) count(sql)
    const metric = await registry.getSingleMetric('idplane_api_database_statements_total')?.get()
    const byKind = Object.fromEntries(metric?.values.map((value) => [value.labels.kind, value.value]) ?? [])
    expect(byKind).toEqual({ select: 2, insert: 1, update: 1, delete: 1, with: 1, other: 3 })
  })

  it('shares the counter when a second database opens on the same registry', () => {
    const registry = new Registry()
    statementCounter(registry)('select 1')
    expect(() => statementCounter(registry)('select 1')).not.toThrow()
  })
})
