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
    // One object in 20 stays alive, spread over every page: a plain full collection keeps those pages committed.
    // Measured as committed-but-unused heap, so what earlier tests in this worker left behind does not matter.
    const mb = (bytes: number) => Math.round(bytes / 1048576)
    const usedBefore = process.memoryUsage().heapUsed
    const kept: object[] = []
    let garbage: object[] | undefined = []
    for (let index = 0; index < 1_000_000; index++)
      (index % 20 === 0 ? kept : garbage).push({ index, text: `x${index}` })
    expect(mb(process.memoryUsage().heapUsed - usedBefore)).toBeGreaterThan(40)
    garbage = undefined

    const sut = new IdleCollector()
    sut.tick()

    const after = process.memoryUsage()
    expect(mb(after.heapTotal - after.heapUsed)).toBeLessThan(15)
    expect(kept).toHaveLength(50_000)
    expect(garbage).toBeUndefined()
  })

  it('reaches V8 without --expose-gc', () => {
    const sut = new IdleCollector()
    expect(() => sut.tick()).not.toThrow()
  })
})
