import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { IDLE_CPU_MS, IdleCollector } from './idle-collector'

/** A CPU clock the test advances, in milliseconds. */
function aCpuClock() {
  let usedMs = 0
  return {
    spend: (ms: number) => (usedMs += ms),
    read: (): NodeJS.CpuUsage => ({ user: usedMs * 1000, system: 0 }),
  }
}

describe('IdleCollector', () => {
  it('collects once when the agent goes quiet after work, and again only after more work', () => {
    const clock = aCpuClock()
    const collect = jest.fn()
    const sut = new IdleCollector(collect, clock.read)

    clock.spend(IDLE_CPU_MS + 300)
    sut.tick()
    expect(collect).not.toHaveBeenCalled()

    clock.spend(IDLE_CPU_MS)
    sut.tick()
    sut.tick()
    expect(collect).toHaveBeenCalledTimes(1)

    clock.spend(IDLE_CPU_MS + 1)
    sut.tick()
    sut.tick()
    expect(collect).toHaveBeenCalledTimes(2)
  })

  it('does not count the time of its own collection as work', () => {
    const clock = aCpuClock()
    const sut = new IdleCollector(() => clock.spend(80), clock.read)
    sut.tick()
    sut.tick()
    sut.tick()
    expect(clock.read().user).toBe(80 * 1000)
  })

  it('gives a fragmented heap back when idle, not only its garbage', () => {
    // In a fresh Node process: a jest worker's heap carries whatever earlier test files left in it. One object in
    // 20 stays alive, spread over every page, so a plain full collection would keep those pages committed (about
    // 94 MB unused); the memory-reducing one compacts them.
    const script = `
      const { IdleCollector } = require('./agent/src/idle-collector')
      const kept = []
      let garbage = []
      for (let index = 0; index < 1000000; index++) (index % 20 === 0 ? kept : garbage).push({ index, text: 'x' + index })
      garbage = undefined
      new IdleCollector().tick()
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
