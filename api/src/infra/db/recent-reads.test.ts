import { RecentReads } from './recent-reads'

/** A read that answers when the test says so, counting how often it was asked. */
function controlledRead<V>() {
  const pending: ((value: V | null) => void)[] = []
  const read = jest.fn(() => new Promise<V | null>((resolve) => pending.push(resolve)))
  return { read, answer: (value: V | null) => pending.shift()?.(value) }
}

describe('RecentReads', () => {
  let now: number
  let transactionOpen: boolean
  const clock = () => now
  const inTransaction = () => transactionOpen

  beforeEach(() => {
    now = 1_000
    transactionOpen = false
  })

  it('serves a value read less than the reuse time ago, and reads again after it', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const read = jest.fn(async () => `value at ${now}`)
    await expect(reads.get('a', read)).resolves.toBe('value at 1000')
    now = 2_999
    await expect(reads.get('a', read)).resolves.toBe('value at 1000')
    expect(read).toHaveBeenCalledTimes(1)
    now = 3_000
    await expect(reads.get('a', read)).resolves.toBe('value at 3000')
    expect(read).toHaveBeenCalledTimes(2)
  })

  it('keeps no missing value: a row that is not there yet is read each time', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const read = jest.fn(async () => null)
    await reads.get('a', read)
    await reads.get('a', read)
    expect(read).toHaveBeenCalledTimes(2)
  })

  it('answers overlapping reads of one key with one read', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const { read, answer } = controlledRead<string>()
    const first = reads.get('a', read)
    const second = reads.get('a', read)
    answer('row')
    await expect(Promise.all([first, second])).resolves.toEqual(['row', 'row'])
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('lets a read inside a transaction use a kept value but never join, start or keep a shared one', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const outside = controlledRead<string>()
    // A read outside the transaction, in flight: on the embedded database it waits for the transaction's connection.
    const shared = reads.get('a', outside.read)
    const transactionRead = jest.fn(async () => 'uncommitted row')
    transactionOpen = true
    await expect(reads.get('a', transactionRead)).resolves.toBe('uncommitted row')
    transactionOpen = false
    expect(outside.read).toHaveBeenCalledTimes(1)
    // What the transaction read is not kept: the next outside read joins the one in flight, as before.
    const joined = reads.get('a', outside.read)
    outside.answer('committed row')
    await expect(Promise.all([shared, joined])).resolves.toEqual(['committed row', 'committed row'])
    expect(outside.read).toHaveBeenCalledTimes(1)
    // A kept value serves a read inside a transaction without a query.
    transactionOpen = true
    await expect(reads.get('a', transactionRead)).resolves.toBe('committed row')
    expect(transactionRead).toHaveBeenCalledTimes(1)
  })

  it('reads again after forget, and keeps nothing a read begun before the forget returns', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const { read, answer } = controlledRead<string>()
    const before = reads.get('a', read)
    reads.forget('a')
    const after = reads.get('a', read)
    expect(read).toHaveBeenCalledTimes(2)
    answer('old row')
    answer('new row')
    await expect(before).resolves.toBe('old row')
    await expect(after).resolves.toBe('new row')
    // The read begun before the forget kept nothing; the one after did.
    await expect(reads.get('a', read)).resolves.toBe('new row')
    expect(read).toHaveBeenCalledTimes(2)
  })

  it('reads everything again after clear', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const read = jest.fn(async () => 'row')
    await reads.get('a', read)
    await reads.get('b', read)
    reads.clear()
    await reads.get('a', read)
    await reads.get('b', read)
    expect(read).toHaveBeenCalledTimes(4)
  })

  it('reads again the keys forgetWhere picks, and only those', async () => {
    const reads = new RecentReads<string, string>(2_000, 10, inTransaction, clock)
    const read = jest.fn(async () => 'row')
    for (const key of ['org-1/a', 'org-1/b', 'org-2/a']) await reads.get(key, read)
    reads.forgetWhere((key) => key.startsWith('org-1/'))
    for (const key of ['org-1/a', 'org-1/b', 'org-2/a']) await reads.get(key, read)
    expect(read.mock.calls).toHaveLength(5)
  })

  it('remembers at most its bound of keys', async () => {
    const reads = new RecentReads<string, string>(2_000, 2, inTransaction, clock)
    const read = jest.fn(async () => 'row')
    for (const key of ['a', 'b', 'c', 'a']) await reads.get(key, read)
    expect(read).toHaveBeenCalledTimes(4)
  })
})
