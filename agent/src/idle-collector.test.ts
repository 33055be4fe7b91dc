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

  it('reaches V8 without --expose-gc', () => {
    const sut = new IdleCollector()
    expect(() => sut.tick()).not.toThrow()
  })
})
