import { RecordCache } from './record-cache'

const row = (id: string, role: string) => ({ id, json: JSON.stringify({ id }), tags: { role } })

describe('RecordCache', () => {
  it('does not keep a read that overlapped a write in the same context and type', () => {
    const sut = new RecordCache()
    const seen = sut.version('ctx', 'T')
    sut.written('ctx', 'T', 'other', { role: 'x' })
    sut.setQuery('ctx', 'T', 'q', { role: 'issuer' }, [row('a', 'issuer')], seen)
    sut.setById('ctx', 'T', row('a', 'issuer'), seen)
    expect(sut.getQuery('ctx', 'T', 'q')).toBeUndefined()
    expect(sut.getById('ctx', 'T', 'a')).toBeUndefined()
  })

  it('drops only the results a write can change', () => {
    const sut = new RecordCache()
    const seen = sut.version('ctx', 'T')
    sut.setQuery('ctx', 'T', 'issuers', { role: 'issuer' }, [row('a', 'issuer')], seen)
    sut.setQuery('ctx', 'T', 'holders', { role: 'holder' }, [], seen)
    sut.setQuery('ctx', 'T', 'verifiers', { role: 'verifier' }, [row('v', 'verifier')], seen)
    sut.written('ctx', 'T', 'b', { role: 'holder' })
    expect(sut.getQuery('ctx', 'T', 'holders')).toBeUndefined()
    expect(sut.getQuery('ctx', 'T', 'issuers')).toHaveLength(1)
    sut.written('ctx', 'T', 'a', undefined)
    expect(sut.getQuery('ctx', 'T', 'issuers')).toBeUndefined()
    expect(sut.getQuery('ctx', 'T', 'verifiers')).toHaveLength(1)
    expect(sut.getQuery('other', 'T', 'verifiers')).toBeUndefined()
    sut.dropContext('ctx')
    expect(sut.getQuery('ctx', 'T', 'verifiers')).toBeUndefined()
  })
})
