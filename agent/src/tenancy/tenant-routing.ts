import { BoundedMap, ConflictError } from '@idplane/common'

const MAX_UNOWNED = 10000
/**
 * Keys remembered with their tenant (about 150 bytes each; 15 MB at the bound), least recently used dropped: a dropped
 * key is read from the store again. Memory alone knows a key only between its routing event and its write landing,
 * far fewer keys than this.
 */
const MAX_KNOWN = 100_000

/** Where the recipient-key → tenant mapping is kept (the base context's records; a double in tests). */
export interface TenantRoutingStore {
  /** @throws {ConflictError} when the key already belongs to a tenant */
  save(recipientKeyFingerprint: string, tenantId: string): Promise<void>
  find(recipientKeyFingerprint: string): Promise<string | undefined>
  deleteTenant(tenantId: string): Promise<void>
}

/**
 * Routes inbound DIDComm messages to tenants by recipient key, as Credo's tenants package does with its routing
 * records. A key is known in memory the moment it is registered, before the store has it, because Credo emits
 * the routing event synchronously and the invitation carrying the key may be answered before the write lands.
 * This process is the only writer of the mapping (one process per agent), so what it remembers stays true.
 */
export class TenantRouting {
  private readonly known: BoundedMap<string, string>
  /** Keys the store does not have (the base wallet's own keys), bounded; a registration removes its key. */
  private readonly unowned = new Set<string>()

  public constructor(
    private readonly store: TenantRoutingStore,
    maxKnown = MAX_KNOWN,
  ) {
    this.known = new BoundedMap(maxKnown)
  }

  /**
   * Claims a recipient key for a tenant. Claiming a key the tenant already owns is a no-op.
   * @throws {ConflictError} when another tenant owns the key
   */
  public async register(tenantId: string, recipientKeyFingerprint: string): Promise<void> {
    const owner = this.known.get(recipientKeyFingerprint) ?? (await this.store.find(recipientKeyFingerprint))
    if (owner === tenantId) {
      this.known.set(recipientKeyFingerprint, tenantId)
      return
    }
    if (owner !== undefined) throw new ConflictError('The key belongs to another tenant')
    this.unowned.delete(recipientKeyFingerprint)
    this.known.set(recipientKeyFingerprint, tenantId)
    try {
      await this.store.save(recipientKeyFingerprint, tenantId)
    } catch (error) {
      this.known.delete(recipientKeyFingerprint)
      throw error
    }
  }

  /**
   * Registers a freshly created key (Credo's routing event) at once, and stores it in the background; a failed
   * write is reported to `onError`, the in-memory claim stays for this process.
   */
  public registerNew(tenantId: string, recipientKeyFingerprint: string, onError: (error: unknown) => void): void {
    this.unowned.delete(recipientKeyFingerprint)
    this.known.set(recipientKeyFingerprint, tenantId)
    this.store.save(recipientKeyFingerprint, tenantId).catch(onError)
  }

  /** The tenant owning the first of the keys that has one; undefined means the base wallet. */
  public async tenantFor(recipientKeyFingerprints: readonly string[]): Promise<string | undefined> {
    for (const fingerprint of recipientKeyFingerprints) {
      const cached = this.known.get(fingerprint)
      if (cached !== undefined) return cached
    }
    for (const fingerprint of recipientKeyFingerprints) {
      if (this.unowned.has(fingerprint)) continue
      const stored = await this.store.find(fingerprint)
      if (stored !== undefined) {
        this.known.set(fingerprint, stored)
        return stored
      }
      if (this.unowned.size >= MAX_UNOWNED) this.unowned.clear()
      this.unowned.add(fingerprint)
    }
    return undefined
  }

  public async removeTenant(tenantId: string): Promise<void> {
    // Deleting the entry just visited is safe while iterating a Map; no lookup reorders the others.
    for (const [fingerprint, owner] of this.known.entriesByAge()) if (owner === tenantId) this.known.delete(fingerprint)
    await this.store.deleteTenant(tenantId)
  }
}
