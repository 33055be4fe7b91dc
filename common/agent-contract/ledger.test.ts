import { canonicalJson, didStatePath, ledgerSigningBytes, nymPossessionBytes } from './ledger'

describe('canonicalJson', () => {
  it('sorts keys recursively and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    )
  })

  it('drops undefined members and writes undefined array items as null, as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}')
  })

  it('escapes strings as JSON does', () => {
    expect(canonicalJson({ 'k"': 'a\nb' })).toBe('{"k\\"":"a\\nb"}')
  })

  it('refuses what is not JSON', () => {
    expect(() => canonicalJson(() => 1)).toThrow(TypeError)
  })

  it('signing bytes do not depend on the order of the payload keys', () => {
    const base = { namespace: 'idplane', type: 'SCHEMA' as const, authorDid: 'x' }
    expect(ledgerSigningBytes({ ...base, payload: { name: 'n', version: '1' } })).toEqual(
      ledgerSigningBytes({ ...base, payload: { version: '1', name: 'n' } }),
    )
    expect(nymPossessionBytes({ namespace: 'n', did: 'd', verkey: 'v', lastSeqNo: 0 }).toString()).toBe(
      '{"did":"d","lastSeqNo":0,"namespace":"n","type":"NYM","verkey":"v"}',
    )
  })

  it('signing bytes cover the binding when there is one, and are the bytes of before bindings when there is none', () => {
    const base = { namespace: 'idplane', type: 'ATTRIB' as const, authorDid: 'x', payload: { dest: 'x' } }
    expect(ledgerSigningBytes(base).toString()).toBe(
      '{"authorDid":"x","namespace":"idplane","payload":{"dest":"x"},"type":"ATTRIB"}',
    )
    expect(ledgerSigningBytes({ ...base, lastSeqNo: 7 }).toString()).toBe(
      '{"authorDid":"x","lastSeqNo":7,"namespace":"idplane","payload":{"dest":"x"},"type":"ATTRIB"}',
    )
    expect(ledgerSigningBytes({ ...base, lastSeqNo: 7 })).not.toEqual(ledgerSigningBytes({ ...base, lastSeqNo: 8 }))
    expect(didStatePath('did:indy:idplane:x')).toBe('/dids/did%3Aindy%3Aidplane%3Ax/state')
  })
})
