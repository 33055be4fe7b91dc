import { Registry } from 'prom-client'
import { silentLogger } from '@idplane/common'
import { pruneInBatches, RetentionPruner, type RetentionOptions, type RetentionTask } from './retention-pruner'

/** A table of `due` prunable rows: each batch takes up to its limit. */
function aTable(table: string, due: number): RetentionTask & { limits: number[]; left: () => number } {
  let left = due
  const limits: number[] = []
  return {
    table,
    limits,
    left: () => left,
    pruneBatch: async (limit) => {
      limits.push(limit)
      const deleted = Math.min(limit, left)
      left -= deleted
      return deleted
    },
  }
}

const OPTIONS: RetentionOptions = { intervalMs: 60_000, batchSize: 10, pauseMs: 0, maxBatchesPerPass: 100 }

async function metric(registry: Registry, name: string, table: string): Promise<number | undefined> {
  const values = (await registry.getSingleMetric(name)?.get())?.values ?? []
  return values.find((value) => value.labels.table === table && !('le' in value.labels))?.value
}

describe('pruneInBatches', () => {
  it('deletes batch after batch until a batch comes back short', async () => {
    const table = aTable('t', 25)
    const pauses: number[] = []
    const deleted = await pruneInBatches(table.pruneBatch, {
      batchSize: 10,
      pauseMs: 30,
      maxBatches: 100,
      pause: async (ms) => void pauses.push(ms),
    })
    expect(deleted).toBe(25)
    expect(table.limits).toEqual([10, 10, 10])
    // A pause between batches, none before the first.
    expect(pauses).toEqual([30, 30])
  })

  it('asks one more batch after a full one: exactly a batch left ends with an empty batch', async () => {
    const table = aTable('t', 20)
    expect(await pruneInBatches(table.pruneBatch, { batchSize: 10, pauseMs: 0, maxBatches: 100 })).toBe(20)
    expect(table.limits).toEqual([10, 10, 10])
  })

  it('runs one batch when nothing is due', async () => {
    const table = aTable('t', 0)
    expect(await pruneInBatches(table.pruneBatch, { batchSize: 10, pauseMs: 0, maxBatches: 100 })).toBe(0)
    expect(table.limits).toEqual([10])
  })

  it('stops at maxBatches and leaves the rest for the next pass', async () => {
    const table = aTable('t', 1_000)
    expect(await pruneInBatches(table.pruneBatch, { batchSize: 10, pauseMs: 0, maxBatches: 3 })).toBe(30)
    expect(table.left()).toBe(970)
  })

  it('ends after the current batch once the process is stopping', async () => {
    const table = aTable('t', 1_000)
    let isStopping = false
    const deleted = await pruneInBatches(
      async (limit) => {
        const count = await table.pruneBatch(limit)
        isStopping = true
        return count
      },
      { batchSize: 10, pauseMs: 0, maxBatches: 100, isStopping: () => isStopping },
    )
    expect(deleted).toBe(10)
  })

  it('passes a failing batch on (the pass counts the table as failed)', async () => {
    const failing = async () => Promise.reject(new Error('connection lost'))
    await expect(pruneInBatches(failing, { batchSize: 10, pauseMs: 0, maxBatches: 100 })).rejects.toThrow(
      'connection lost',
    )
  })
})

describe('RetentionPruner', () => {
  it('prunes every table in one pass and counts the rows and the duration per table', async () => {
    const registry = new Registry()
    const mail = aTable('mail_outbox', 15)
    const links = aTable('short_urls', 3)
    const sut = new RetentionPruner([mail, links], OPTIONS, silentLogger, registry)

    expect(await sut.pruneOnce()).toEqual({ mail_outbox: 15, short_urls: 3 })
    expect(await sut.pruneOnce()).toEqual({ mail_outbox: 0, short_urls: 0 })

    expect(await metric(registry, 'idplane_api_retention_pruned_rows_total', 'mail_outbox')).toBe(15)
    expect(await metric(registry, 'idplane_api_retention_pruned_rows_total', 'short_urls')).toBe(3)
    const durations = await registry.getSingleMetricAsString('idplane_api_retention_prune_duration_seconds')
    expect(durations).toContain('idplane_api_retention_prune_duration_seconds_count{table="mail_outbox"} 2')
    expect(durations).toContain('idplane_api_retention_prune_duration_seconds_count{table="short_urls"} 2')
  })

  it('still prunes the other tables when one fails, and counts the failure', async () => {
    const registry = new Registry()
    const broken: RetentionTask = { table: 'webhook_deliveries', pruneBatch: () => Promise.reject(new Error('down')) }
    const links = aTable('short_urls', 4)
    const sut = new RetentionPruner([broken, links], OPTIONS, silentLogger, registry)

    expect(await sut.pruneOnce()).toEqual({ webhook_deliveries: 0, short_urls: 4 })
    expect(await metric(registry, 'idplane_api_retention_prune_failures_total', 'webhook_deliveries')).toBe(1)
  })

  it('shares its metrics with another pruner on the same registry', () => {
    const registry = new Registry()
    new RetentionPruner([], OPTIONS, silentLogger, registry)
    expect(() => new RetentionPruner([], OPTIONS, silentLogger, registry)).not.toThrow()
  })

  it('runs passes on its timer and stop() waits for the pass in progress', async () => {
    jest.useFakeTimers()
    try {
      let release: () => void = () => undefined
      const calls: number[] = []
      const slow: RetentionTask = {
        table: 't',
        pruneBatch: async () => {
          calls.push(Date.now())
          await new Promise<void>((resolve) => (release = resolve))
          return 0
        },
      }
      const sut = new RetentionPruner([slow], { ...OPTIONS, intervalMs: 1_000 }, silentLogger, new Registry())
      sut.start()
      await jest.advanceTimersByTimeAsync(1_000)
      expect(calls).toHaveLength(1)

      let isStopped = false
      const stopping = sut.stop().then(() => (isStopped = true))
      await jest.advanceTimersByTimeAsync(0)
      expect(isStopped).toBe(false)
      release()
      await stopping
      // No pass after stop.
      await jest.advanceTimersByTimeAsync(5_000)
      expect(calls).toHaveLength(1)
    } finally {
      jest.useRealTimers()
    }
  })
})
