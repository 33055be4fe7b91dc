import { silentLogger } from '@idplane/common'
import { Registry } from 'prom-client'

import { EmbeddedMaintenance } from './embedded-maintenance'

/** The clock and the failure handling; the statements themselves run on PGlite in migrations.int. */
describe('EmbeddedMaintenance', () => {
  const runsObserved = async (registry: Registry, outcome: string) => {
    const text = await registry.metrics()
    const count = new RegExp(
      `idplane_api_embedded_database_maintenance_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)`,
    )
    return Number(count.exec(text)?.[1] ?? 0)
  }
  const until = async (condition: () => boolean) => {
    for (let waited = 0; !condition(); waited += 5) {
      if (waited > 2000) throw new Error('timed out')
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }

  it('runs at start, then again every interval, each statement in turn, until stopped', async () => {
    const statements: string[] = []
    const query = async <Row>(text: string): Promise<Row[]> => {
      statements.push(text)
      if (text.includes('pg_tables')) return [{ name: 'items' }, { name: '"odd name"' }] as Row[]
      if (text.includes('reltuples')) return [{ live: 3 }] as Row[]
      return []
    }
    const registry = new Registry()
    const maintenance = new EmbeddedMaintenance(query, silentLogger, registry, 20)
    maintenance.start()
    await until(() => statements.filter((text) => text.startsWith('VACUUM')).length >= 2)
    await maintenance.stop()
    const vacuums = statements.filter((text) => text.startsWith('VACUUM'))
    expect(vacuums[0]).toBe('VACUUM (ANALYZE) items, "odd name"')
    const after = statements.length
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(statements).toHaveLength(after)
    expect(await runsObserved(registry, 'done')).toBeGreaterThanOrEqual(2)
  })

  it('reports a failed run and tries again at the next interval', async () => {
    let calls = 0
    const query = async <Row>(text: string): Promise<Row[]> => {
      calls++
      if (calls === 1) throw new Error('database is closing')
      return (text.includes('pg_tables') ? [] : [{ live: 0 }]) as Row[]
    }
    const registry = new Registry()
    const maintenance = new EmbeddedMaintenance(query, silentLogger, registry, 20)
    maintenance.start()
    await until(() => calls >= 3)
    await maintenance.stop()
    expect(await runsObserved(registry, 'failed')).toBe(1)
    expect(await runsObserved(registry, 'done')).toBeGreaterThanOrEqual(1)
  })
})
