import { InvalidStateError } from '@idplane/common'

import { statusOfCopy, statusProblem, storedStatus } from './offer-status'

const URI = 'https://api.example/v1/status-lists/5e7d0c4a-2f39-4f6e-9b1e-0d1c2b3a4f5e'

describe('statusProblem', () => {
  it('accepts { idx, uri } on a dc+sd-jwt or mso_mdoc template', () => {
    expect(statusProblem('dc+sd-jwt', { idx: 0, uri: URI })).toBeUndefined()
    expect(statusProblem('mso_mdoc', { idx: 3, uri: URI, copyIdx: [4] })).toBeUndefined()
    expect(statusProblem('dc+sd-jwt', { idx: 131_071, uri: 'http://127.0.0.1:3000/v1/status-lists/1' })).toBeUndefined()
  })

  it.each([
    ['jwt_vc_json', { idx: 1, uri: URI }, 'not jwt_vc_json'],
    ['dc+sd-jwt', 'revocation', 'must be { idx, uri, copyIdx? }'],
    ['dc+sd-jwt', { idx: -1, uri: URI }, 'idx must be'],
    ['dc+sd-jwt', { idx: 1.5, uri: URI }, 'idx must be'],
    ['dc+sd-jwt', { idx: '1', uri: URI }, 'idx must be'],
    ['dc+sd-jwt', { idx: 1, uri: 'ftp://api.example/list' }, 'uri must be'],
    ['dc+sd-jwt', { idx: 1 }, 'uri must be'],
    ['dc+sd-jwt', { idx: 1, uri: URI, copyIdx: 2 }, 'copyIdx must be a list'],
    ['dc+sd-jwt', { idx: 1, uri: URI, copyIdx: [2, 2.5] }, 'copyIdx must hold whole numbers'],
    ['dc+sd-jwt', { idx: 1, uri: URI, copyIdx: [2, 1] }, 'must all differ'],
    ['dc+sd-jwt', { idx: 1, uri: URI, copyIdx: Array.from({ length: 100 }, (_, i) => i + 2) }, 'fewer than 100'],
  ] as const)('refuses a status on %s: %j', (format, status, message) => {
    expect(statusProblem(format, status)).toContain(message)
  })
})

describe('statusOfCopy', () => {
  it('gives each copy of a batch its own entry', () => {
    const status = { idx: 7, uri: URI, copyIdx: [900, 12] }
    expect([0, 1, 2].map((copy) => statusOfCopy(status, copy))).toEqual([
      { idx: 7, uri: URI },
      { idx: 900, uri: URI },
      { idx: 12, uri: URI },
    ])
  })

  it("refuses a copy the offer holds no entry for, rather than give it another copy's", () => {
    expect(() => statusOfCopy({ idx: 7, uri: URI, copyIdx: [900] }, 2)).toThrow(InvalidStateError)
  })

  it('gives every copy idx for an offer stored before copies had their own (no copyIdx)', () => {
    expect(statusOfCopy({ idx: 7, uri: URI }, 3)).toEqual({ idx: 7, uri: URI })
  })
})

describe('storedStatus', () => {
  it("reads the template's entry, and none for a template offered without one", () => {
    const metadata = { credentials: {}, statuses: { a: { idx: 7, uri: URI } } }
    expect(storedStatus(metadata, 'a')).toEqual({ idx: 7, uri: URI })
    expect(storedStatus({ statuses: { a: { idx: 7, uri: URI, copyIdx: [3] } } }, 'a')).toEqual({
      idx: 7,
      uri: URI,
      copyIdx: [3],
    })
    expect(storedStatus(metadata, 'b')).toBeUndefined()
    expect(storedStatus({ credentials: {} }, 'a')).toBeUndefined()
    expect(storedStatus(undefined, 'a')).toBeUndefined()
  })

  it('refuses a malformed stored entry rather than issue without it', () => {
    expect(() => storedStatus({ statuses: { a: { idx: '7', uri: URI } } }, 'a')).toThrow(InvalidStateError)
    expect(() => storedStatus({ statuses: { a: 'x' } }, 'a')).toThrow(InvalidStateError)
    expect(() => storedStatus({ statuses: { a: { idx: 7, uri: URI, copyIdx: ['3'] } } }, 'a')).toThrow(
      InvalidStateError,
    )
  })
})
