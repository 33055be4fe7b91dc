import { BoundedMap } from './bounded-map'

describe('BoundedMap', () => {
  it('drops the least recently used entry beyond its bound', () => {
    const map = new BoundedMap<string, number>(2)
    map.set('a', 1).set('b', 2)
    expect(map.get('a')).toBe(1) // a is now more recent than b
    map.set('c', 3)
    expect(map.get('b')).toBeUndefined()
    expect([...map.keys()]).toEqual(['a', 'c'])
    expect(map.size).toBe(2)
  })

  it('replaces a key without dropping another', () => {
    const map = new BoundedMap<string, number>(2)
    map.set('a', 1).set('b', 2).set('a', 10)
    expect(map.get('a')).toBe(10)
    expect(map.get('b')).toBe(2)
    expect(map.delete('a')).toBe(true)
    expect(map.size).toBe(1)
  })

  it('lists its entries oldest first without making them recent', () => {
    const map = new BoundedMap<string, number>(2)
    map.set('a', 1).set('b', 2)
    expect([...map.entriesByAge()]).toEqual([
      ['a', 1],
      ['b', 2],
    ])
    map.set('c', 3) // a, the oldest still, is the one dropped
    expect([...map.keys()]).toEqual(['b', 'c'])
  })

  it('makes a missing value once and keeps it', () => {
    const map = new BoundedMap<string, number>(2)
    const make = jest.fn(() => 7)
    expect(map.remembered('a', make)).toBe(7)
    expect(map.remembered('a', make)).toBe(7)
    expect(make).toHaveBeenCalledTimes(1)
    expect(map.remembered('b', () => 8)).toBe(8)
    map.remembered('c', () => 9)
    // 'a' was the least recently used.
    expect(map.get('a')).toBeUndefined()
  })

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError)
  })
})
