import { issuanceReportOf } from './credential.mapper'

describe('issuanceReportOf', () => {
  const occurredAt = '2026-11-28T12:00:30.000Z'

  it('reads a Credo credential exchange record, its version from updatedAt, then createdAt, then the event', () => {
    const record = { id: 'x1', state: 'offer-sent', role: 'issuer', connectionId: 'c1', protocolVersion: 'v2' }
    expect(issuanceReportOf({ ...record, updatedAt: '2026-11-28T12:00:05.000Z' }, occurredAt)).toEqual({
      recordId: 'x1',
      state: 'offer-sent',
      versionAt: new Date('2026-11-28T12:00:05.000Z'),
      fields: {
        createdAt: undefined,
        role: 'issuer',
        connectionId: 'c1',
        threadId: null,
        protocolVersion: 'v2',
        errorMessage: null,
      },
    })
    expect(issuanceReportOf({ ...record, createdAt: '2026-11-28T12:00:01.000Z' }, occurredAt)?.versionAt).toEqual(
      new Date('2026-11-28T12:00:01.000Z'),
    )
    expect(issuanceReportOf(record, occurredAt)?.versionAt).toEqual(new Date(occurredAt))
  })

  it('refuses unknown states, missing ids and over-long ids', () => {
    expect(issuanceReportOf({ id: 'x1', state: 'teleported' }, occurredAt)).toBeNull()
    expect(issuanceReportOf({ state: 'offer-sent' }, occurredAt)).toBeNull()
    expect(issuanceReportOf({ id: 'x'.repeat(101), state: 'offer-sent' }, occurredAt)).toBeNull()
  })

  it("reads the registry and index Credo's AnonCreds format wrote into the record's metadata", () => {
    const registry = 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/REV_REG_DEF/12/CL/default'
    const record = (credentialRevocationId: unknown) => ({
      id: 'x1',
      state: 'offer-sent',
      metadata: { '_anoncreds/credential': { revocationRegistryId: registry, credentialRevocationId } },
    })
    expect(issuanceReportOf(record('7'), occurredAt)?.fields).toMatchObject({
      revocationRegistryId: registry,
      revocationIndex: 7,
    })
    for (const malformed of ['0', '-1', '1.5', 7, '', '12345678901']) {
      const fields = issuanceReportOf(record(malformed), occurredAt)?.fields
      expect(fields?.revocationRegistryId).toBeUndefined()
      expect(fields?.revocationIndex).toBeUndefined()
    }
    expect(issuanceReportOf({ id: 'x1', state: 'offer-sent', metadata: 'x' }, occurredAt)?.fields.revocationIndex).toBe(
      undefined,
    )
  })
})
