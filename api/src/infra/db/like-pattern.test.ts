import { containsPattern } from './like-pattern'

describe('containsPattern', () => {
  it.each([
    ['acme', '%acme%'],
    ['100%', '%100\\%%'],
    ['a_b', '%a\\_b%'],
    ['back\\slash', '%back\\\\slash%'],
  ])('makes %j a literal substring pattern', (text, pattern) => {
    expect(containsPattern(text)).toBe(pattern)
  })
})
