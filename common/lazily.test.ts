import { lazily } from './lazily'

describe('lazily', () => {
  it('makes the value at the first call, once, and keeps it (undefined too)', () => {
    const make = jest.fn(() => undefined)
    const value = lazily(make)
    expect(make).not.toHaveBeenCalled()
    expect(value()).toBeUndefined()
    expect(value()).toBeUndefined()
    expect(make).toHaveBeenCalledTimes(1)
  })

  it('makes it again at the next call when making failed', () => {
    let calls = 0
    const value = lazily(() => {
      calls += 1
      if (calls === 1) throw new Error('not yet')
      return calls
    })
    expect(() => value()).toThrow('not yet')
    expect(value()).toBe(2)
    expect(value()).toBe(2)
  })
})
