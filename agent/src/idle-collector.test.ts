import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { COLLECT_GROWTH_BYTES, IDLE_CPU_MS, IdleCollector, QUIET_CHECKS_FOR_IDLE } from './idle-collector'

/** A CPU clock the test advances, in milliseconds. */
function aCpuClock() {
  let usedMs = 0
  return {
    spend: (ms: number) => (usedMs += ms),
    read: (): NodeJS.CpuUsage => ({ user: usedMs * 1000, system: 0 }),
  }
}

describe('IdleCollector', () => {
  /** A collector on the test's clocks; the heap grows by `growth` bytes between collections unless told otherwise. */
  function aCollector(options: { growth?: number; collectMs?: number } = {}) {
    const clock = aCpuClock()
    let committed = 0
    const collect = jest.fn(() => clock.spend(options.collectMs ?? 0))
    const onCollected = jest.fn()
    const sut = new IdleCollector({ collect, cpuUsage: clock.read, heapCommitted: () => committed, onCollected })
    const work = () => {
      clock.spend(IDLE_CPU_MS + 1)
      committed += options.growth ?? COLLECT_GROWTH_BYTES
      sut.tick()
    }
    const quiet = (checks: number) => {
      for (let check = 0; check < checks; check++) {
        clock.spend(IDLE_CPU_MS)
        sut.tick()
      }
    }
    return { sut, clock, collect, onCollected, work, quiet }
  }

  it('collects once when the agent stays quiet after work, and again only after more work', () => {
    const { collect, onCollected, work, quiet } = aCollector()

    work()
    quiet(QUIET_CHECKS_FOR_IDLE - 1)
    expect(collect).not.toHaveBeenCalled()
    quiet(1)
    expect(collect).toHaveBeenCalledTimes(1)
    expect(onCollected).toHaveBeenCalledTimes(1)
    quiet(QUIET_CHECKS_FOR_IDLE * 2)
    expect(collect).toHaveBeenCalledTimes(1)

    work()
    quiet(QUIET_CHECKS_FOR_IDLE)
    expect(collect).toHaveBeenCalledTimes(2)
  })

  it('does not collect in the pauses of a steady load', () => {
    const { collect, work, quiet } = aCollector()
    for (let exchange = 0; exchange < 20; exchange++) {
      work()
      quiet(QUIET_CHECKS_FOR_IDLE - 1)
    }
    expect(collect).not.toHaveBeenCalled()
  })

  it('leaves a heap alone that grew less than the threshold since the last collection', () => {
    const { collect, work, quiet } = aCollector({ growth: COLLECT_GROWTH_BYTES / 4 })
    // 4 quarters: the first three idle periods find too little to give back, the fourth collects.
    for (let period = 1; period <= 4; period++) {
      work()
      quiet(QUIET_CHECKS_FOR_IDLE)
      expect(collect).toHaveBeenCalledTimes(period < 4 ? 0 : 1)
    }
    work()
    quiet(QUIET_CHECKS_FOR_IDLE)
    expect(collect).toHaveBeenCalledTimes(1)
  })

  it('does not count the time of its own collection as work', () => {
    const clock = aCpuClock()
    let committed = 0
    // A heap that always looks grown, so only the idle-period logic decides.
    const heapCommitted = () => (committed += COLLECT_GROWTH_BYTES)
    const collect = jest.fn(() => clock.spend(IDLE_CPU_MS * 5))
    const sut = new IdleCollector({ collect, cpuUsage: clock.read, heapCommitted })
    clock.spend(IDLE_CPU_MS + 1)
    sut.tick()
    for (let check = 0; check < QUIET_CHECKS_FOR_IDLE * 3; check++) sut.tick()
    // Counted as work, the collection would have started a new idle period and collected again in it.
    expect(collect).toHaveBeenCalledTimes(1)
  })

  it('gives a fragmented heap back when idle, not only its garbage', () => {
    // In a fresh Node process: a jest worker's heap carries whatever earlier test files left in it. One object in
    // 20 stays alive, spread over every page, so a plain full collection would keep those pages committed (about
    // 94 MB unused); the memory-reducing one compacts them.
    const script = `
      const { IdleCollector, QUIET_CHECKS_FOR_IDLE } = require('./agent/src/idle-collector')
      const kept = []
      let garbage = []
      for (let index = 0; index < 1000000; index++) (index % 20 === 0 ? kept : garbage).push({ index, text: 'x' + index })
      garbage = undefined
      const collector = new IdleCollector()
      for (let check = 0; check < QUIET_CHECKS_FOR_IDLE; check++) collector.tick()
      const memory = process.memoryUsage()
      process.stdout.write(JSON.stringify({ unusedMb: (memory.heapTotal - memory.heapUsed) / 1048576, kept: kept.length }))
    `
    const root = path.resolve(__dirname, '../..')
    const output = execFileSync(process.execPath, ['-r', './bench/register-ts.cjs', '-e', script], { cwd: root })
    const result = JSON.parse(output.toString()) as { unusedMb: number; kept: number }
    expect(result.kept).toBe(50_000)
    expect(result.unusedMb).toBeLessThan(15)
  })

  it('reaches V8 without --expose-gc', () => {
    const sut = new IdleCollector()
    expect(() => sut.tick()).not.toThrow()
  })
})
