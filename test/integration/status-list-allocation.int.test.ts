import { randomUUID } from 'node:crypto'
import { StatusListsRepository } from '../../api/src/modules/status-lists/status-lists.repository'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

const ISSUER = 'did:key:z6MkStatusListAllocationTestIssuer'

/**
 * Index allocation of Bitstring Status Lists on the real database (issue 25 item 4): concurrent allocations never
 * share an index and never exceed the list's size; indices are drawn at random, not in order; bits move the list's
 * revision and a stored publication is never replaced by an older one. DATABASE_URL chooses PostgreSQL (its pool runs
 * the allocations really concurrently); PGlite otherwise.
 */
describe(`status list allocation (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let api: TestApi
  let repository: StatusListsRepository
  let orgId: string

  async function aList(size: number, purpose: 'revocation' | 'suspension' = 'revocation'): Promise<string> {
    const id = randomUUID()
    const newest = await repository.newest(orgId, 'bitstring', ISSUER, purpose)
    const added = await repository.add(orgId, {
      id,
      format: 'bitstring',
      issuer: ISSUER,
      purpose,
      sequence: (newest?.sequence ?? 0) + 1,
      proofType: 'Ed25519Signature2020',
      size,
      credential: { unsigned: true },
    })
    expect(added).toBe(true)
    return id
  }

  async function allocate(purpose: 'revocation' | 'suspension' = 'revocation') {
    const slot = await repository.reserve(orgId, 'bitstring', ISSUER, purpose)
    if (!slot) return undefined
    return { statusListId: slot.statusListId, index: await repository.takeIndex(slot) }
  }

  beforeAll(async () => {
    api = await startApi()
    repository = api.runtime.container.get(StatusListsRepository)
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
  })

  it('gives every index of a list exactly once to concurrent allocations, then answers none', async () => {
    const id = await aList(64)
    const allocated = await Promise.all(Array.from({ length: 64 }, () => allocate()))
    const indices = allocated.map((entry) => entry?.index)
    expect(allocated.every((entry) => entry?.statusListId === id)).toBe(true)
    expect(new Set(indices).size).toBe(64)
    expect([...indices].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Array.from({ length: 64 }, (_, i) => i))
    expect(await allocate()).toBeUndefined()
    // A new list (the next sequence) takes over; a concurrent maker of the same sequence loses the unique key.
    const next = await aList(64)
    expect((await allocate())?.statusListId).toBe(next)
    const newest = await repository.newest(orgId, 'bitstring', ISSUER, 'revocation')
    expect(
      await repository.add(orgId, {
        id: randomUUID(),
        format: 'bitstring',
        issuer: ISSUER,
        purpose: 'revocation',
        sequence: newest?.sequence ?? 0,
        proofType: 'Ed25519Signature2020',
        size: 64,
        credential: {},
      }),
    ).toBe(false)
  })

  it("reserves a batch's copies in one list or not at all: a list with fewer free is passed over", async () => {
    const id = await aList(10, 'suspension')
    const reserveCopies = (count: number) => repository.reserve(orgId, 'bitstring', ISSUER, 'suspension', count)
    const batches = await Promise.all([reserveCopies(4), reserveCopies(4), reserveCopies(4)])
    // Three batches of 4 on a list of 10: two fit, the third finds no list with 4 free.
    expect(batches.filter((slot) => slot?.statusListId === id)).toHaveLength(2)
    expect(batches.filter((slot) => slot === undefined)).toHaveLength(1)
    const slot = batches.find((found) => found !== undefined)
    if (!slot) throw new Error('no slot')
    const copies = await Promise.all(Array.from({ length: 4 }, () => repository.takeIndex(slot)))
    expect(new Set(copies).size).toBe(4)
    // Two left: a pair fits, and then not even one.
    expect(await reserveCopies(2)).toMatchObject({ statusListId: id })
    expect(await reserveCopies(1)).toBeUndefined()
  })

  it('draws indices at random across a list of 131,072, not in order', async () => {
    await aList(131_072, 'suspension')
    const indices: number[] = []
    for (let i = 0; i < 20; i++) indices.push((await allocate('suspension'))?.index ?? -1)
    expect(new Set(indices).size).toBe(20)
    // In order would be 0..19; twenty uniform draws all below 1,000 has probability (1000/131072)^20.
    expect(indices.some((index) => index >= 1_000)).toBe(true)
    expect(indices).not.toEqual([...indices].sort((a, b) => a - b))
  })

  it('moves the revision with each bit change, and keeps the newest publication', async () => {
    const entry = await allocate()
    if (!entry) throw new Error('no index')
    const id = entry.statusListId
    expect(await repository.inOwnContext(() => repository.setBit(id, entry.index, true))).toBe(true)
    expect(await repository.inOwnContext(() => repository.setBit(id, entry.index, true))).toBe(false)
    expect(await repository.setIndices(id)).toEqual([entry.index])
    expect((await repository.findById(id))?.revision).toBe(1)
    await repository.storePublished(id, 1, { credential: { published: 1 } })
    await repository.storePublished(id, 0, { credential: { published: 0 } })
    expect((await repository.findById(id))?.credential).toEqual({ published: 1 })
    expect(await repository.inOwnContext(() => repository.setBit(id, entry.index, false))).toBe(true)
    expect(await repository.setIndices(id)).toEqual([])
    expect((await repository.findById(id))?.revision).toBe(2)
  })

  it('keeps token lists apart from bitstring lists of the same signer and purpose', async () => {
    const newest = await repository.newest(orgId, 'token', ISSUER, 'revocation')
    expect(newest).toBeNull()
    const id = randomUUID()
    expect(
      await repository.add(orgId, {
        id,
        format: 'token',
        issuer: ISSUER,
        purpose: 'revocation',
        sequence: 1,
        proofType: 'statuslist+jwt',
        size: 16,
        token: 'header.payload.signature',
      }),
    ).toBe(true)
    const slot = await repository.reserve(orgId, 'token', ISSUER, 'revocation')
    expect(slot?.statusListId).toBe(id)
    expect((await repository.reserve(orgId, 'bitstring', ISSUER, 'revocation'))?.statusListId).not.toBe(id)
    await repository.storePublished(id, 1, { token: 'newer.token.signature' })
    expect(await repository.findById(id)).toMatchObject({
      format: 'token',
      token: 'newer.token.signature',
      credential: null,
    })
  })
})
