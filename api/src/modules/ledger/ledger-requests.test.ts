import { randomBytes } from 'node:crypto'
import { InvalidInputError } from '@idplane/common'
import { Ed25519Signer } from './ledger-crypto'
import { readLedgerWrite, readNymRequest } from './ledger-requests'

const author = new Ed25519Signer(randomBytes(32))
const fieldsOf = (work: () => unknown) => {
  try {
    work()
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields.map((field) => field.field)
    throw error
  }
  return []
}

describe('ledger write envelopes', () => {
  const write = { type: 'ATTRIB', authorDid: author.did, payload: {}, signature: '3yZe7d', lastSeqNo: 4 }

  it('takes a whole number from 0 as the binding of any type', () => {
    expect(readLedgerWrite(write)).toEqual(write)
    expect(readLedgerWrite({ ...write, type: 'REVOC_REG_ENTRY', lastSeqNo: 0 }).lastSeqNo).toBe(0)
  })

  it.each([undefined, -1, 1.5, '4', null, Number.MAX_SAFE_INTEGER + 1])(
    'refuses lastSeqNo %p naming it',
    (lastSeqNo) => {
      expect(fieldsOf(() => readLedgerWrite({ ...write, lastSeqNo }))).toEqual(['lastSeqNo'])
    },
  )

  it('names every bad field of a NYM request, the binding included', () => {
    const nym = { did: author.did, verkey: author.verkey, signature: 'x', lastSeqNo: 0 }
    expect(readNymRequest(nym)).toEqual(nym)
    expect(fieldsOf(() => readNymRequest({ ...nym, lastSeqNo: undefined }))).toEqual(['lastSeqNo'])
    expect(fieldsOf(() => readNymRequest({ ...nym, signature: 5, lastSeqNo: 'x' }))).toEqual(['signature', 'lastSeqNo'])
    expect(fieldsOf(() => readNymRequest({ ...nym, did: 'VGekVpqihCAwQWMtQ7gNTV' }))).toEqual(['did'])
  })
})
