import type * as k8s from '@kubernetes/client-node'
import { ConflictError, silentLogger } from '@idplane/common'
import { PortAllocator, type ConfigMapStore } from './allocator'

/** An in-memory ConfigMap with the API server's optimistic concurrency, and a hook to slip writes in between. */
class FakeConfigMapStore implements ConfigMapStore {
  public configMap: k8s.V1ConfigMap | undefined
  public writes = 0
  public conflicts = 0
  /** Runs before each write is applied, e.g. to simulate another writer. */
  public beforeWrite: () => void = () => undefined
  private version = 0

  public async read(): Promise<k8s.V1ConfigMap | undefined> {
    await Promise.resolve()
    return this.configMap && structuredClone(this.configMap)
  }

  public async create(configMap: k8s.V1ConfigMap): Promise<k8s.V1ConfigMap> {
    await Promise.resolve()
    this.beforeWrite()
    if (this.configMap) throw this.conflict()
    return this.store(configMap)
  }

  public async replace(configMap: k8s.V1ConfigMap): Promise<k8s.V1ConfigMap> {
    await Promise.resolve()
    this.beforeWrite()
    if (configMap.metadata?.resourceVersion !== this.configMap?.metadata?.resourceVersion) throw this.conflict()
    return this.store(configMap)
  }

  /** Another writer bumps a counter behind the allocator's back. */
  public bumpBehindTheBack(): void {
    const data = this.configMap?.data ?? {}
    this.store({
      ...this.configMap,
      data: {
        ...data,
        adminPort: String(Number(data.adminPort ?? 8001) + 1),
        inboundPort: String(Number(data.inboundPort ?? 9001) + 1),
      },
    })
  }

  private store(configMap: k8s.V1ConfigMap): k8s.V1ConfigMap {
    this.writes += 1
    this.version += 1
    this.configMap = {
      ...structuredClone(configMap),
      metadata: { ...configMap.metadata, resourceVersion: String(this.version) },
    }
    return structuredClone(this.configMap)
  }

  private conflict(): Error {
    this.conflicts += 1
    return Object.assign(new Error('Conflict'), { code: 409 })
  }
}

const options = { name: 'idplane-agent-ports', namespace: 'idplane', logger: silentLogger }

describe('PortAllocator', () => {
  it('gives the first agent 8002/9002 and creates the ConfigMap with the counters', async () => {
    const store = new FakeConfigMapStore()
    const ports = await new PortAllocator(store, options).allocate('uid-1')
    expect(ports).toEqual({ adminPort: 8002, inboundPort: 9002 })
    expect(store.configMap?.data).toEqual({ adminPort: '8002', inboundPort: '9002', 'agent.uid-1': '8002,9002' })
    expect(store.configMap?.metadata).toMatchObject({ name: 'idplane-agent-ports', namespace: 'idplane' })
  })

  it('gives each new agent the incremented values', async () => {
    const allocator = new PortAllocator(new FakeConfigMapStore(), options)
    const pairs = []
    for (const owner of ['a', 'b', 'c']) pairs.push(await allocator.allocate(owner))
    expect(pairs).toEqual([
      { adminPort: 8002, inboundPort: 9002 },
      { adminPort: 8003, inboundPort: 9003 },
      { adminPort: 8004, inboundPort: 9004 },
    ])
  })

  it('returns the recorded ports when the same agent asks again, without writing', async () => {
    const store = new FakeConfigMapStore()
    const allocator = new PortAllocator(store, options)
    const first = await allocator.allocate('uid-1')
    const writes = store.writes
    expect(await new PortAllocator(store, options).allocate('uid-1')).toEqual(first)
    expect(store.writes).toBe(writes)
  })

  it('re-reads and retries on 409 when another writer changed the ConfigMap', async () => {
    const store = new FakeConfigMapStore()
    const allocator = new PortAllocator(store, options)
    await allocator.allocate('a')
    let interfere = 2
    store.beforeWrite = () => {
      if (interfere-- > 0) store.bumpBehindTheBack()
    }
    expect(await allocator.allocate('b')).toEqual({ adminPort: 8005, inboundPort: 9005 })
    expect(store.conflicts).toBe(2)
  })

  it('hands out distinct pairs to two allocators racing on one ConfigMap', async () => {
    const store = new FakeConfigMapStore()
    const one = new PortAllocator(store, options)
    const two = new PortAllocator(store, options)
    const owners = Array.from({ length: 20 }, (_, index) => `uid-${index}`)
    const pairs = await Promise.all(owners.map((owner, index) => (index % 2 === 0 ? one : two).allocate(owner)))
    const admin = pairs.map((pair) => pair.adminPort).sort((a, b) => a - b)
    expect(admin).toEqual(Array.from({ length: 20 }, (_, index) => 8002 + index))
    expect(new Set(pairs.map((pair) => pair.inboundPort)).size).toBe(20)
    expect(store.conflicts).toBeGreaterThan(0)
  })

  it('gives up with ConflictError when every attempt conflicts', async () => {
    const store = new FakeConfigMapStore()
    store.beforeWrite = () => store.bumpBehindTheBack()
    await expect(new PortAllocator(store, { ...options, maxAttempts: 3 }).allocate('a')).rejects.toBeInstanceOf(
      ConflictError,
    )
  })

  it('rethrows errors other than 409', async () => {
    const store = new FakeConfigMapStore()
    store.beforeWrite = () => {
      throw Object.assign(new Error('Forbidden'), { code: 403 })
    }
    await expect(new PortAllocator(store, options).allocate('a')).rejects.toMatchObject({ code: 403 })
  })

  it('releases the record but never hands the ports out again', async () => {
    const store = new FakeConfigMapStore()
    const allocator = new PortAllocator(store, options)
    await allocator.allocate('a')
    await allocator.release('a')
    expect(store.configMap?.data).toEqual({ adminPort: '8002', inboundPort: '9002' })
    expect(await allocator.allocate('b')).toEqual({ adminPort: 8003, inboundPort: 9003 })
    await allocator.release('gone')
  })
})
