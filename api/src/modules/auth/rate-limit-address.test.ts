import { rateLimitAddress } from './rate-limit-address'

describe('rateLimitAddress', () => {
  it.each([
    ['a@example.com', 'a@example.com'],
    ['a+x@Example.com', 'a@example.com'],
    [' A+x+y@EXAMPLE.COM ', 'a@example.com'],
    ['+only@example.com', '+only@example.com'],
    ['a+x@sub+domain.example', 'a@sub+domain.example'],
    ['no-at-sign', 'no-at-sign'],
  ])('%j counts as %j', (input, expected) => {
    expect(rateLimitAddress(input)).toBe(expected)
  })
})
