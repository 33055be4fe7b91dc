import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'
import type { PlatformEvent } from '../../infra/platform-events'
import type { CredentialRecord } from './credential.entity'
import { CREDENTIAL_REVOKED, CredentialRevocations } from './credential-revocations'

const REGISTRY = 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/REV_REG_DEF/7/default/r1'

function row(id: string, fields: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    credentialRecordId: id,
    state: 'done',
    role: 'issuer',
    credentialType: 'INDY',
    revocationRegistryId: REGISTRY,
    revocationIndex: Number(id.replace(/\D/g, '')) || 1,
    revocationStatus: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    agentUpdatedAt: new Date(),
    ...fields,
  } as CredentialRecord
}

/** The revocations over an in-memory set of records and an agent whose first `failures` revocations fail. */
function revocationsOf(records: CredentialRecord[], failures = 0) {
  const revoked: { revocationRegistryDefinitionId: string; revokedIndices: number[] }[] = []
  const events: PlatformEvent[] = []
  let calls = 0
  const find = (id: string) => records.find((record) => record.credentialRecordId === id) ?? null
  const repository = {
    findForOrg: async (_orgId: string, id: string) => find(id),
    markRevocationPending: async (_orgId: string, id: string) => {
      const record = find(id)
      if (!record || record.revocationStatus) return false
      record.revocationStatus = 'pending'
      return true
    },
    pendingRevocations: async () => records.filter((record) => record.revocationStatus === 'pending'),
    markRevoked: async (_orgId: string, registry: string, indices: number[]) => {
      const marked = records.filter(
        (record) =>
          record.revocationRegistryId === registry &&
          indices.includes(record.revocationIndex as number) &&
          record.revocationStatus === 'pending',
      )
      for (const record of marked) {
        record.revocationStatus = 'revoked'
        record.revokedAt = new Date()
      }
      return marked
    },
    transactional: (work: () => Promise<unknown>) => work(),
    pendingStatusChanges: async () => [],
  }
  const agent = {
    revokeAnonCredsCredentials: async (body: { revocationRegistryDefinitionId: string; revokedIndices: number[] }) => {
      calls += 1
      if (calls <= failures) throw new Error('the agent died')
      revoked.push(body)
    },
  }
  const service = new CredentialRevocations(
    repository as never,
    { forOrg: async () => agent } as never,
    { publish: async (published: PlatformEvent[]) => void events.push(...published) } as never,
    {} as never,
    {} as never,
  )
  return { service, revoked, events }
}

describe('CredentialRevocations', () => {
  it('publishes at once, shows the record revoked and announces it once; again is 409', async () => {
    const records = [row('r1')]
    const { service, revoked, events } = revocationsOf(records)
    const shown = await service.revoke('org', 'r1', { publish: true })
    expect(shown).toMatchObject({ revoked: true, revocationStatus: 'revoked', revocationIndex: 1 })
    expect(revoked).toEqual([{ revocationRegistryDefinitionId: REGISTRY, revokedIndices: [1] }])
    expect(events.map((event) => [event.type, event.record.id])).toEqual([[CREDENTIAL_REVOKED, 'r1']])
    await expect(service.revoke('org', 'r1', { publish: true })).rejects.toBeInstanceOf(ConflictError)
  })

  it('keeps a revocation whose publication failed pending, and publishes it on the next try (never lost)', async () => {
    const records = [row('r1')]
    const { service, revoked, events } = revocationsOf(records, 1)
    await expect(service.revoke('org', 'r1', { publish: true })).rejects.toThrow('the agent died')
    expect(records[0].revocationStatus).toBe('pending')
    expect(events).toEqual([])
    // Asked again (a client retry): the pending one is published, not refused.
    expect(await service.revoke('org', 'r1', { publish: true })).toMatchObject({ revoked: true })
    expect(revoked).toEqual([{ revocationRegistryDefinitionId: REGISTRY, revokedIndices: [1] }])
  })

  it('batches pending revocations and publishes them grouped by registry', async () => {
    const records = [row('r1'), row('r2'), row('r3', { revocationRegistryId: `${REGISTRY}b` }), row('r4')]
    const { service, revoked, events } = revocationsOf(records)
    for (const id of ['r1', 'r2', 'r3']) {
      expect(await service.revoke('org', id, { publish: false })).toMatchObject({
        revoked: false,
        revocationStatus: 'pending',
      })
    }
    await expect(service.revoke('org', 'r1', { publish: false })).rejects.toBeInstanceOf(ConflictError)
    expect(revoked).toEqual([])
    const published = await service.publishPending('org')
    expect(published).toEqual([
      {
        revocationRegistryId: REGISTRY,
        statusListCredential: null,
        revokedIndices: [1, 2],
        credentialRecordIds: ['r1', 'r2'],
      },
      {
        revocationRegistryId: `${REGISTRY}b`,
        statusListCredential: null,
        revokedIndices: [3],
        credentialRecordIds: ['r3'],
      },
    ])
    expect(events.map((event) => event.record.id)).toEqual(['r1', 'r2', 'r3'])
    expect(records[3].revocationStatus).toBeNull()
    expect(await service.publishPending('org')).toEqual([])
  })

  it('answers 404 for an unknown record and 400 for one not revocable or not issued', async () => {
    const records = [
      row('r1', { revocationRegistryId: null, revocationIndex: null }),
      row('r2', { state: 'offer-sent' }),
      row('r3', { role: 'holder' }),
    ]
    const { service, revoked } = revocationsOf(records)
    await expect(service.revoke('org', 'nope', { publish: true })).rejects.toBeInstanceOf(NotFoundError)
    for (const id of ['r1', 'r2', 'r3'])
      await expect(service.revoke('org', id, { publish: true })).rejects.toBeInstanceOf(InvalidInputError)
    expect(revoked).toEqual([])
    expect(records.map((record) => record.revocationStatus)).toEqual([null, null, null])
  })

  it('answers 400 to suspending or reinstating an AnonCreds credential, and leaves it as it was', async () => {
    const records = [row('r1')]
    const { service, revoked } = revocationsOf(records)
    await expect(service.revoke('org', 'r1', { publish: true, purpose: 'suspension' })).rejects.toBeInstanceOf(
      InvalidInputError,
    )
    await expect(service.revoke('org', 'r1', { publish: true, reinstate: true })).rejects.toThrow(/only be revoked/)
    expect(revoked).toEqual([])
    expect(records[0].revocationStatus).toBeNull()
  })
})

/** JSON-LD records with a status entry, over in-memory records and a status list whose bits and publications are kept. */
function statusRevocationsOf(records: CredentialRecord[], offerState = 'Completed') {
  const bits = new Map<number, boolean>()
  const publications: string[] = []
  const events: PlatformEvent[] = []
  const find = (id: string) => records.find((record) => record.credentialRecordId === id) ?? null
  const repository = {
    findForOrg: async (_orgId: string, id: string) => find(id),
    transactional: (work: () => Promise<unknown>) => work(),
    setOpenId4VcOfferState: async (_orgId: string, id: string, state: string) => {
      const record = find(id)
      if (record) record.state = state
    },
    requestStatusChange: async (
      _orgId: string,
      id: string,
      from: Partial<CredentialRecord>,
      to: Partial<CredentialRecord>,
    ) => {
      const record = find(id)
      if (!record || (record.revocationStatus ?? null) !== (from.revocationStatus ?? null)) return false
      if ((record.suspensionStatus ?? null) !== (from.suspensionStatus ?? null)) return false
      Object.assign(record, to)
      return true
    },
    markStatusPublished: async (_orgId: string, _list: string, indices: number[]) =>
      records
        .filter((record) => indices.includes(record.statusListIndex as number))
        .flatMap((record): { record: CredentialRecord; change: 'revoked' | 'suspended' | 'reinstated' }[] => {
          if (record.revocationStatus === 'pending') {
            record.revocationStatus = 'revoked'
            return [{ record, change: 'revoked' as const }]
          }
          if (record.suspensionStatus === 'pending') {
            record.suspensionStatus = 'suspended'
            return [{ record, change: 'suspended' as const }]
          }
          if (record.suspensionStatus === 'reinstating') {
            record.suspensionStatus = null
            return [{ record, change: 'reinstated' as const }]
          }
          return []
        }),
  }
  const statusLists = {
    setBit: async ({ index }: { index: number }, value: boolean) => {
      const changed = (bits.get(index) ?? false) !== value
      bits.set(index, value)
      return changed
    },
    publish: async (_orgId: string, list: string) => void publications.push(list),
    urlOf: (list: string) => `https://api.example/v1/status-lists/${list}`,
  }
  // An OpenID4VC offer's state comes from the agent (its record is not fed by events).
  const agents = { openId4VcForOrg: async () => ({ getOffer: async () => ({ state: offerState }) }) }
  const service = new CredentialRevocations(
    repository as never,
    agents as never,
    { publish: async (published: PlatformEvent[]) => void events.push(...published) } as never,
    statusLists as never,
    {} as never,
  )
  return { service, bits, publications, events }
}

const jsonLd = (id: string, purpose: 'revocation' | 'suspension', index: number) =>
  row(id, {
    credentialType: 'JSONLD',
    revocationRegistryId: null,
    revocationIndex: null,
    statusListId: 'list-1',
    statusListIndex: index,
    statusPurpose: purpose,
    suspensionStatus: null,
  })

describe('CredentialRevocations, JSON-LD status lists', () => {
  it('suspends, reinstates and suspends again, publishing the bit each time and announcing each', async () => {
    const records = [jsonLd('s1', 'suspension', 77)]
    const { service, bits, publications, events } = statusRevocationsOf(records)
    expect(await service.revoke('org', 's1', { publish: true, purpose: 'suspension' })).toMatchObject({
      suspended: true,
      suspensionStatus: 'suspended',
    })
    expect(bits.get(77)).toBe(true)
    await expect(service.revoke('org', 's1', { publish: true, purpose: 'suspension' })).rejects.toBeInstanceOf(
      ConflictError,
    )
    expect(await service.revoke('org', 's1', { publish: true, purpose: 'suspension', reinstate: true })).toMatchObject({
      suspended: false,
      suspensionStatus: null,
    })
    expect(bits.get(77)).toBe(false)
    await expect(
      service.revoke('org', 's1', { publish: true, purpose: 'suspension', reinstate: true }),
    ).rejects.toBeInstanceOf(ConflictError)
    expect(publications).toEqual(['list-1', 'list-1'])
    expect(events.map((event) => event.type)).toEqual(['credential.suspended', 'credential.reinstated'])
  })

  it('keeps a suspension pending until publish, and a pending one reinstated is dropped', async () => {
    const records = [jsonLd('s1', 'suspension', 5), jsonLd('s2', 'suspension', 6)]
    const { service, bits, publications } = statusRevocationsOf(records)
    await service.revoke('org', 's1', { publish: false, purpose: 'suspension' })
    await service.revoke('org', 's2', { publish: false, purpose: 'suspension' })
    expect(records.map((record) => record.suspensionStatus)).toEqual(['pending', 'pending'])
    await service.revoke('org', 's2', { publish: false, purpose: 'suspension', reinstate: true })
    expect(records[1].suspensionStatus).toBeNull()
    expect([bits.get(5), bits.get(6)]).toEqual([true, false])
    expect(publications).toEqual([])
  })

  it('refuses what does not apply: a purpose other than the entry, reinstating a revocation, twice revoked', async () => {
    const records = [jsonLd('r1', 'revocation', 1), jsonLd('s1', 'suspension', 2)]
    const { service, bits } = statusRevocationsOf(records)
    await expect(service.revoke('org', 'r1', { publish: true, purpose: 'suspension' })).rejects.toBeInstanceOf(
      InvalidInputError,
    )
    await expect(service.revoke('org', 's1', { publish: true })).rejects.toThrow(/use purpose suspension/)
    await expect(service.revoke('org', 'r1', { publish: true, reinstate: true })).rejects.toThrow(/permanent/)
    expect(await service.revoke('org', 'r1', { publish: true })).toMatchObject({ revoked: true })
    await expect(service.revoke('org', 'r1', { publish: true })).rejects.toBeInstanceOf(ConflictError)
    expect([bits.get(1), bits.get(2)]).toEqual([true, undefined])
  })

  it('revokes an SD-JWT VC by its offer id once the agent says it is issued, keeping the state it read', async () => {
    const offer = { ...jsonLd('offer-1', 'revocation', 9), credentialType: 'SD_JWT', state: 'OfferCreated' } as const
    const early = statusRevocationsOf([{ ...offer } as CredentialRecord], 'AccessTokenCreated')
    await expect(early.service.revoke('org', 'offer-1', { publish: true })).rejects.toThrow(
      /not issued \(state AccessTokenCreated\)/,
    )
    expect(early.bits.get(9)).toBeUndefined()
    const records = [{ ...offer } as CredentialRecord]
    const { service, bits, publications, events } = statusRevocationsOf(records, 'Completed')
    expect(await service.revoke('org', 'offer-1', { publish: true })).toMatchObject({
      id: 'offer-1',
      credentialType: 'SD_JWT',
      state: 'Completed',
      revoked: true,
    })
    expect(bits.get(9)).toBe(true)
    expect(publications).toEqual(['list-1'])
    expect(events.map((event) => event.type)).toEqual(['credential.revoked'])
  })
})
