import { statusCodeOf } from './kube-api-errors'

describe('statusCodeOf', () => {
  it.each([
    [{ code: 404 }, 404],
    [{ statusCode: 409 }, 409],
    [{ code: 'ECONNREFUSED' }, undefined],
    [new Error('boom'), undefined],
    [null, undefined],
    ['404', undefined],
  ])('%p gives %p', (error, expected) => {
    expect(statusCodeOf(error)).toBe(expected)
  })
})
