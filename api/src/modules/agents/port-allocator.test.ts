import { InvalidStateError } from '@idplane/common'
import type { PortPair } from '@idplane/common/ports'
import { allocatePorts, type CounterStart, type PortCounterStore } from './port-allocator'

const SPEC_START: CounterStart = { admin: 8001, inbound: 9001 }

/** An in-memory store with the semantics of the SQL one: counters created at `start`, then incremented. */
function aStore(): PortCounterStore & { recorded: Map<string, PortPair> } {
  let counters: { admin: number; inbound: number } | undefined
  const recorded = new Map<string, PortPair>()
  return {
    recorded,
    recordedPorts: async (id) => recorded.get(id),
    increment: async (start) => {
      counters = counters ?? { ...start }
      counters = { admin: counters.admin + 1, inbound: counters.inbound + 1 }
      return { adminPort: counters.admin, inboundPort: counters.inbound }
    },
    record: async (id, ports) => void recorded.set(id, ports),
  }
}

describe('allocatePorts', () => {
  it('gives the first agent 8002 / 9002 and each next agent the incremented pair', async () => {
    const store = aStore()
    const pairs = []
    for (const id of ['a', 'b', 'c']) pairs.push(await allocatePorts(store, id, SPEC_START))
    expect(pairs).toEqual([
      { adminPort: 8002, inboundPort: 9002 },
      { adminPort: 8003, inboundPort: 9003 },
      { adminPort: 8004, inboundPort: 9004 },
    ])
  })

  it('returns the recorded ports on a retry without moving the counters', async () => {
    const store = aStore()
    const first = await allocatePorts(store, 'a', SPEC_START)
    expect(await allocatePorts(store, 'a', SPEC_START)).toEqual(first)
    expect(await allocatePorts(store, 'b', SPEC_START)).toEqual({ adminPort: 8003, inboundPort: 9003 })
  })

  it('starts from a moved counter start', async () => {
    expect(await allocatePorts(aStore(), 'a', { admin: 18001, inbound: 19001 })).toEqual({
      adminPort: 18002,
      inboundPort: 19002,
    })
  })

  it('refuses an admin port that would run into the inbound range', async () => {
    const store = aStore()
    const start = { admin: 8999, inbound: 9001 }
    await allocatePorts(store, 'a', start)
    await allocatePorts(store, 'b', start)
    await expect(allocatePorts(store, 'c', start)).rejects.toBeInstanceOf(InvalidStateError)
    expect(store.recorded.has('c')).toBe(false)
  })

  it('refuses an inbound port above 65535', async () => {
    await expect(allocatePorts(aStore(), 'a', { admin: 100, inbound: 65535 })).rejects.toBeInstanceOf(InvalidStateError)
  })
})
