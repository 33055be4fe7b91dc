import { ConflictError } from '@idplane/common'

import { TenantRouting, type TenantRoutingStore } from './tenant-routing'

/** The store as a map, with a gate to hold writes back (Credo's routing event does not wait for them). */
class MapStore implements TenantRoutingStore {
  public readonly rows = new Map<string, string>()
  public reads = 0
  public hold: Promise<void> = Promise.resolve()

  public async save(fingerprint: string, tenantId: string): Promise<void> {
    await this.hold
    if (this.rows.has(fingerprint)) throw new ConflictError('taken')
    this.rows.set(fingerprint, tenantId)
  }

  public async find(fingerprint: string): Promise<string | undefined> {
    this.reads++
    return this.rows.get(fingerprint)
  }

  public async deleteTenant(tenantId: string): Promise<void> {
    for (const [fingerprint, owner] of this.rows) if (owner === tenantId) this.rows.delete(fingerprint)
  }
}

describe('TenantRouting', () => {
  it('routes a key registered from the routing event before its write lands', async () => {
    const store = new MapStore()
    let release = () => undefined as void
    store.hold = new Promise<void>((resolve) => (release = resolve))
    const sut = new TenantRouting(store)
    sut.registerNew('a', 'z6Mk-a', () => undefined)
    expect(await sut.tenantFor(['z6Mk-a'])).toBe('a')
    expect(store.rows.size).toBe(0)
    release()
    await new Promise((resolve) => setImmediate(resolve))
    expect(store.rows.get('z6Mk-a')).toBe('a')
  })

  it('finds stored keys after a restart and caches them; unknown keys mean the base wallet', async () => {
    const store = new MapStore()
    store.rows.set('z6Mk-b', 'b')
    const sut = new TenantRouting(store)
    expect(await sut.tenantFor(['z6Mk-unknown', 'z6Mk-b'])).toBe('b')
    const reads = store.reads
    expect(await sut.tenantFor(['z6Mk-b'])).toBe('b')
    expect(store.reads).toBe(reads)
    expect(await sut.tenantFor(['z6Mk-unknown'])).toBeUndefined()
    expect(await sut.tenantFor([])).toBeUndefined()
  })

  it('remembers keys no tenant owns until one claims them', async () => {
    const store = new MapStore()
    const sut = new TenantRouting(store)
    expect(await sut.tenantFor(['z6Mk-base'])).toBeUndefined()
    const reads = store.reads
    expect(await sut.tenantFor(['z6Mk-base'])).toBeUndefined()
    expect(store.reads).toBe(reads)
    sut.registerNew('a', 'z6Mk-base', () => undefined)
    expect(await sut.tenantFor(['z6Mk-base'])).toBe('a')
  })

  it('refuses a key owned by another tenant and accepts a repeat claim by the owner', async () => {
    const sut = new TenantRouting(new MapStore())
    await sut.register('a', 'z6Mk-seeded')
    await expect(sut.register('a', 'z6Mk-seeded')).resolves.toBeUndefined()
    await expect(sut.register('b', 'z6Mk-seeded')).rejects.toBeInstanceOf(ConflictError)
    expect(await sut.tenantFor(['z6Mk-seeded'])).toBe('a')
  })

  it('forgets every key of a removed tenant, in memory and in the store', async () => {
    const store = new MapStore()
    const sut = new TenantRouting(store)
    sut.registerNew('a', 'z6Mk-1', () => undefined)
    await sut.register('a', 'z6Mk-2')
    await sut.register('b', 'z6Mk-3')
    await sut.removeTenant('a')
    expect(await sut.tenantFor(['z6Mk-1'])).toBeUndefined()
    expect(await sut.tenantFor(['z6Mk-2'])).toBeUndefined()
    expect(await sut.tenantFor(['z6Mk-3'])).toBe('b')
    expect([...store.rows.values()]).toEqual(['b'])
  })

  it('drops the in-memory claim when the store refuses it', async () => {
    const store = new MapStore()
    store.rows.set('z6Mk-race', 'b')
    const sut = new TenantRouting(store)
    await expect(sut.register('a', 'z6Mk-race')).rejects.toBeInstanceOf(ConflictError)
    expect(await sut.tenantFor(['z6Mk-race'])).toBe('b')
  })

  it('keeps a bounded number of keys in memory and reads a dropped one from the store again', async () => {
    const store = new MapStore()
    const sut = new TenantRouting(store, 2)
    for (const key of ['z6Mk-1', 'z6Mk-2', 'z6Mk-3']) await sut.register('a', key)
    const reads = store.reads
    // The two most recent answer from memory; the first was dropped and comes from the store.
    expect(await sut.tenantFor(['z6Mk-3'])).toBe('a')
    expect(await sut.tenantFor(['z6Mk-2'])).toBe('a')
    expect(store.reads).toBe(reads)
    expect(await sut.tenantFor(['z6Mk-1'])).toBe('a')
    expect(store.reads).toBe(reads + 1)
  })
})
