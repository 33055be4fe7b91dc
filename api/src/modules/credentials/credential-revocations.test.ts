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
  )
  return { service, revoked, events }
}

describe('CredentialRevocations', () => {
  it('publishes at once, shows the record revoked and announces it once; again is 409', async () => {
    const records = [row('r1')]
    const { service, revoked, events } = revocationsOf(records)
    const shown = await service.revoke('org', 'r1', true)
    expect(shown).toMatchObject({ revoked: true, revocationStatus: 'revoked', revocationIndex: 1 })
    expect(revoked).toEqual([{ revocationRegistryDefinitionId: REGISTRY, revokedIndices: [1] }])
    expect(events.map((event) => [event.type, event.record.id])).toEqual([[CREDENTIAL_REVOKED, 'r1']])
    await expect(service.revoke('org', 'r1', true)).rejects.toBeInstanceOf(ConflictError)
  })

  it('keeps a revocation whose publication failed pending, and publishes it on the next try (never lost)', async () => {
    const records = [row('r1')]
    const { service, revoked, events } = revocationsOf(records, 1)
    await expect(service.revoke('org', 'r1', true)).rejects.toThrow('the agent died')
    expect(records[0].revocationStatus).toBe('pending')
    expect(events).toEqual([])
    // Asked again (a client retry): the pending one is published, not refused.
    expect(await service.revoke('org', 'r1', true)).toMatchObject({ revoked: true })
    expect(revoked).toEqual([{ revocationRegistryDefinitionId: REGISTRY, revokedIndices: [1] }])
  })

  it('batches pending revocations and publishes them grouped by registry', async () => {
    const records = [row('r1'), row('r2'), row('r3', { revocationRegistryId: `${REGISTRY}b` }), row('r4')]
    const { service, revoked, events } = revocationsOf(records)
    for (const id of ['r1', 'r2', 'r3']) {
      expect(await service.revoke('org', id, false)).toMatchObject({ revoked: false, revocationStatus: 'pending' })
    }
    await expect(service.revoke('org', 'r1', false)).rejects.toBeInstanceOf(ConflictError)
    expect(revoked).toEqual([])
    const published = await service.publishPending('org')
    expect(published).toEqual([
      { revocationRegistryId: REGISTRY, revokedIndices: [1, 2], credentialRecordIds: ['r1', 'r2'] },
      { revocationRegistryId: `${REGISTRY}b`, revokedIndices: [3], credentialRecordIds: ['r3'] },
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
    await expect(service.revoke('org', 'nope', true)).rejects.toBeInstanceOf(NotFoundError)
    for (const id of ['r1', 'r2', 'r3'])
      await expect(service.revoke('org', id, true)).rejects.toBeInstanceOf(InvalidInputError)
    expect(revoked).toEqual([])
    expect(records.map((record) => record.revocationStatus)).toEqual([null, null, null])
  })
})
