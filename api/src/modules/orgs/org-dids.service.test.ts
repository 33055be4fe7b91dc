import { randomUUID } from 'node:crypto'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import { OrgDid } from './org-did.entity'
import { Organization } from './organization.entity'
import { OrgDidsService, type OrgDidStore } from './org-dids.service'
import { FakeRepository } from '../../../../test/helpers/auth-fakes'

/** In-memory DIDs of organizations; `locks` counts the transactions taken. */
class FakeOrgDidStore extends FakeRepository implements OrgDidStore {
  public readonly records: { orgId: string; record: OrgDid }[] = []
  public readonly organizations = new Set<string>()
  public locks = 0

  public async listForOrg(orgId: string): Promise<OrgDid[]> {
    return this.records.filter((row) => row.orgId === orgId).map((row) => row.record)
  }

  public async findForOrg(orgId: string, id: string): Promise<OrgDid | null> {
    return (await this.listForOrg(orgId)).find((record) => record.id === id) ?? null
  }

  public async countForOrg(orgId: string): Promise<number> {
    return (await this.listForOrg(orgId)).length
  }

  public async findByDid(orgId: string, did: string): Promise<OrgDid | null> {
    return (await this.listForOrg(orgId)).find((record) => record.did === did) ?? null
  }

  public async findPrimary(orgId: string): Promise<OrgDid | null> {
    return (await this.listForOrg(orgId)).find((record) => record.isPrimaryDid) ?? null
  }

  public async hasPrimary(orgId: string): Promise<boolean> {
    return (await this.listForOrg(orgId)).some((record) => record.isPrimaryDid)
  }

  public async withOrganizationLocked<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    if (!this.organizations.has(orgId)) throw new NotFoundError('Organization not found')
    this.locks += 1
    return work()
  }

  public async insert(orgId: string, did: string, method: string): Promise<OrgDid> {
    const record = Object.assign(new OrgDid(), {
      did,
      method,
      organization: Object.assign(new Organization(), { id: orgId }),
    })
    this.records.push({ orgId, record })
    return record
  }

  public async makePrimary(orgId: string, record: OrgDid): Promise<void> {
    for (const other of await this.listForOrg(orgId)) other.isPrimaryDid = other === record
  }
}

describe('OrgDidsService', () => {
  let store: FakeOrgDidStore
  let sut: OrgDidsService
  const orgId = randomUUID()
  const otherOrgId = randomUUID()

  const primaries = async (id = orgId) => (await sut.list(id)).filter((r) => r.isPrimaryDid).map((r) => r.did)

  beforeEach(() => {
    store = new FakeOrgDidStore()
    store.organizations.add(orgId).add(otherOrgId)
    sut = new OrgDidsService(store)
  })

  describe('register', () => {
    it('makes the first DID of an organization primary and keeps it when more arrive', async () => {
      await sut.register(orgId, 'did:key:one', 'key')
      await sut.register(orgId, 'did:key:two', 'key')
      expect(await primaries()).toEqual(['did:key:one'])
    })

    it('moves the primary to a DID registered with primary: true', async () => {
      await sut.register(orgId, 'did:key:one', 'key')
      await sut.register(orgId, 'did:key:two', 'key', { primary: true })
      expect(await primaries()).toEqual(['did:key:two'])
    })

    it('returns the existing record when the same DID is registered again', async () => {
      const first = await sut.register(orgId, 'did:key:one', 'key')
      const again = await sut.register(orgId, 'did:key:one', 'key')
      expect(again).toBe(first)
      expect(await sut.list(orgId)).toHaveLength(1)
    })

    it('keeps organizations apart: each has its own primary', async () => {
      await sut.register(orgId, 'did:key:one', 'key')
      await sut.register(otherOrgId, 'did:key:other', 'key')
      expect(await primaries(orgId)).toEqual(['did:key:one'])
      expect(await primaries(otherOrgId)).toEqual(['did:key:other'])
    })

    it('fails with NotFoundError for an unknown organization', async () => {
      await expect(sut.register(randomUUID(), 'did:key:one', 'key')).rejects.toBeInstanceOf(NotFoundError)
    })
  })

  describe('setPrimary', () => {
    it('unsets the old primary and sets the new one under the organization lock', async () => {
      await sut.register(orgId, 'did:key:one', 'key')
      const two = await sut.register(orgId, 'did:key:two', 'key')
      const locksBefore = store.locks
      const result = await sut.setPrimary(orgId, two.id, 'did:key:two')
      expect(result.isPrimaryDid).toBe(true)
      expect(await primaries()).toEqual(['did:key:two'])
      expect(store.locks).toBe(locksBefore + 1)
    })

    it('changes nothing when the DID is already primary', async () => {
      const one = await sut.register(orgId, 'did:key:one', 'key')
      await sut.setPrimary(orgId, one.id, 'did:key:one')
      expect(await primaries()).toEqual(['did:key:one'])
    })

    it("answers NotFoundError for another organization's record", async () => {
      await sut.register(orgId, 'did:key:one', 'key')
      const other = await sut.register(otherOrgId, 'did:key:other', 'key')
      await expect(sut.setPrimary(orgId, other.id, 'did:key:other')).rejects.toBeInstanceOf(NotFoundError)
      expect(await primaries()).toEqual(['did:key:one'])
    })

    it("answers InvalidInputError on did when the DID is not the record's", async () => {
      await sut.register(orgId, 'did:key:one', 'key')
      const two = await sut.register(orgId, 'did:key:two', 'key')
      const error = await sut.setPrimary(orgId, two.id, 'did:key:one').catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as InvalidInputError).fields.map((field) => field.field)).toEqual(['did'])
      expect(await primaries()).toEqual(['did:key:one'])
    })
  })
})
