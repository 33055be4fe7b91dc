import { KeyedQueue } from './keyed-queue'

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('KeyedQueue', () => {
  it('runs tasks of one key in order, even when an earlier one is slower or fails', async () => {
    const sut = new KeyedQueue()
    const done: string[] = []
    const slow = sut.run('k', async () => {
      await tick()
      await tick()
      done.push('first')
      throw new Error('first failed')
    })
    const fast = sut.run('k', () => {
      done.push('second')
      return Promise.resolve('ok')
    })
    await expect(slow).rejects.toThrow('first failed')
    await expect(fast).resolves.toBe('ok')
    expect(done).toEqual(['first', 'second'])
  })

  it('runs tasks of different keys side by side and forgets idle keys', async () => {
    const sut = new KeyedQueue()
    const done: string[] = []
    const a = sut.run('a', async () => {
      await tick()
      await tick()
      done.push('a')
    })
    const b = sut.run('b', () => {
      done.push('b')
      return Promise.resolve()
    })
    await Promise.all([a, b])
    expect(done).toEqual(['b', 'a'])
    await tick()
    expect(sut.size).toBe(0)
  })
})
