import { ApiKeyCheck } from './admin-auth'

describe('ApiKeyCheck', () => {
  const sut = new ApiKeyCheck('the-right-api-key')
  it.each([
    ['Bearer the-right-api-key', true],
    ['Bearer the-wrong-api-key', false],
    ['the-right-api-key', false],
    ['Basic the-right-api-key', false],
    [undefined, false],
    ['Bearer ', false],
  ])('answers %s with %s', (header, expected) => {
    expect(sut.isAuthorized(header)).toBe(expected)
  })
})
