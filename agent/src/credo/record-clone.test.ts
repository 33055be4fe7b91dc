import { BaseRecord, DidRecord, DidDocumentRole, JsonTransformer, W3cCredentialRecord } from '@credo-ts/core'
import {
  DidCommConnectionRecord,
  DidCommCredentialExchangeRecord,
  DidCommMessageRecord,
  DidCommMessageRole,
  DidCommOutOfBandRecord,
  DidCommProofExchangeRecord,
} from '@credo-ts/didcomm'

import { expectSameShape } from '../../../test/helpers/same-shape'
import { cloneRecordsStructurally } from './record-clone'

const credoClone = BaseRecord.prototype.clone

/** Records as Credo writes them, read back from their JSON as storage reads them, with tags and metadata set. */
function records(): BaseRecord[] {
  const read = (record: BaseRecord, recordClass: unknown): BaseRecord => {
    const copy = JsonTransformer.fromJSON(JsonTransformer.toJSON(record), recordClass as never) as BaseRecord
    copy.replaceTags({ ...record.getTags() })
    return copy
  }
  const connection = new DidCommConnectionRecord({
    role: 'requester' as never,
    state: 'completed' as never,
    did: 'did:peer:1',
    theirDid: 'did:peer:2',
    theirLabel: 'issuer',
    threadId: 't1',
    tags: { extra: 'x' } as never,
  })
  connection.metadata.set('note', { nested: [1, 'two', { three: null }] })
  const credential = new DidCommCredentialExchangeRecord({
    connectionId: connection.id,
    threadId: 't2',
    state: 'done' as never,
    role: 'issuer' as never,
    protocolVersion: 'v2',
    credentials: [{ credentialRecordType: 'w3c', credentialRecordId: 'w1' }],
    credentialAttributes: [],
  })
  credential.metadata.set('_internal/x', { when: '2026-12-03T00:00:00Z' })
  const proof = new DidCommProofExchangeRecord({
    connectionId: connection.id,
    threadId: 't3',
    state: 'presentation-received' as never,
    role: 'verifier' as never,
    protocolVersion: 'v2',
    isVerified: true,
  })
  const message = new DidCommMessageRecord({
    role: DidCommMessageRole.Sender,
    associatedRecordId: credential.id,
    message: {
      '@type': 'https://didcomm.org/issue-credential/2.0/offer-credential',
      '@id': 'm1',
      '~thread': { thid: 't2' },
    },
  })
  const outOfBand = JsonTransformer.fromJSON(
    {
      id: 'o1',
      createdAt: '2026-12-03T00:00:00.000Z',
      role: 'sender',
      state: 'await-response',
      reusable: false,
      outOfBandInvitation: {
        '@type': 'https://didcomm.org/out-of-band/1.1/invitation',
        '@id': 'invitation-0001',
        label: 'issuer',
        services: ['did:peer:2.Ez6LSexample'],
        handshake_protocols: ['https://didcomm.org/didexchange/1.1'],
      },
    },
    DidCommOutOfBandRecord,
  )
  const did = new DidRecord({ did: 'did:peer:1', role: DidDocumentRole.Created })
  const w3c = JsonTransformer.fromJSON(
    {
      id: 'w1',
      createdAt: '2026-12-03T00:00:00.000Z',
      credentialInstances: [
        {
          credential: {
            '@context': ['https://www.w3.org/2018/credentials/v1'],
            type: ['VerifiableCredential'],
            issuer: 'did:example:issuer',
            issuanceDate: '2026-01-01T00:00:00Z',
            credentialSubject: { id: 'did:example:holder' },
            proof: {
              type: 'Ed25519Signature2020',
              created: '2026-01-01T00:00:00Z',
              verificationMethod: 'did:example:issuer#key-1',
              proofPurpose: 'assertionMethod',
              proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKods5D2UAUL5n2Brbx',
            },
          },
        },
      ],
    },
    W3cCredentialRecord,
  )
  return [
    connection,
    read(connection as unknown as BaseRecord, DidCommConnectionRecord),
    credential,
    read(credential as unknown as BaseRecord, DidCommCredentialExchangeRecord),
    proof,
    message,
    read(message as unknown as BaseRecord, DidCommMessageRecord),
    outOfBand,
    did,
    w3c,
  ] as unknown as BaseRecord[]
}

describe('cloneRecordsStructurally', () => {
  afterEach(() => {
    BaseRecord.prototype.clone = credoClone
  })

  it.each(records().map((record) => [record.constructor.name, record] as const))(
    "copies a %s as Credo's clone does: the same classes, fields and tags, and the record's JSON",
    (_name, record) => {
      const expected = record.clone()
      cloneRecordsStructurally()
      const copy = record.clone()
      expect(copy).not.toBe(record)
      expectSameShape(copy, expected)
      expect(copy.getTags()).toEqual(expected.getTags())
      // The record's own JSON, not the Credo copy's: that copy empties an invitation's DID services (below).
      expect(JsonTransformer.toJSON(copy)).toEqual(JsonTransformer.toJSON(record))
    },
  )

  it("keeps an invitation's DID services, which Credo's own copy turns into empty strings", () => {
    const outOfBand = records().find(
      (record) => record instanceof DidCommOutOfBandRecord,
    ) as unknown as DidCommOutOfBandRecord
    const services = (record: DidCommOutOfBandRecord) =>
      (JsonTransformer.toJSON(record) as { outOfBandInvitation: { services: unknown[] } }).outOfBandInvitation.services
    expect(services(outOfBand.clone())).toEqual([''])
    cloneRecordsStructurally()
    expect(services(outOfBand.clone())).toEqual(['did:peer:2.Ez6LSexample'])
  })

  it('shares nothing a listener could change with the record', () => {
    cloneRecordsStructurally()
    const record = new DidCommConnectionRecord({ role: 'requester' as never, state: 'completed' as never })
    record.metadata.set('note', { list: [1] })
    const copy = record.clone()
    copy.metadata.set('note', { list: [2] })
    copy.setTag('extra' as never, 'y' as never)
    expect(record.metadata.get('note')).toEqual({ list: [1] })
    expect(record.getTag('extra' as never)).toBeUndefined()
  })
})
