import { plainToInstance } from 'class-transformer'
import { validate } from 'class-validator'
import { MAX_PAGE_NUMBER, PageQuery, toPage } from './pagination'

/** How routing-controllers reads a query: strings from the URL, transformed, then validated. */
async function parse(query: Record<string, string>): Promise<{ query: PageQuery; failed: string[] }> {
  const instance = plainToInstance(PageQuery, query)
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true })
  return { query: instance, failed: errors.map((error) => error.property) }
}

describe('PageQuery', () => {
  it.each([
    [{}, 1, 10],
    [{ pageNumber: '2', pageSize: '25' }, 2, 25],
    [{ pageNumber: '007' }, 7, 10],
    [{ pageNumber: String(MAX_PAGE_NUMBER), pageSize: '100' }, MAX_PAGE_NUMBER, 100],
  ])('reads %j as page %d of size %d', async (raw, pageNumber, pageSize) => {
    const { query, failed } = await parse(raw)
    expect(failed).toEqual([])
    expect(query).toEqual(expect.objectContaining({ pageNumber, pageSize }))
  })

  it.each([
    ['1e21'],
    ['1e3'],
    ['0x10'],
    ['0b11'],
    ['0o7'],
    ['1.0'],
    ['1.5'],
    [' 2'],
    ['+2'],
    ['-1'],
    ['0'],
    [''],
    ['Infinity'],
    ['9'.repeat(30)],
    [String(MAX_PAGE_NUMBER + 1)],
  ])('refuses pageNumber=%j', async (pageNumber) => {
    expect((await parse({ pageNumber })).failed).toEqual(['pageNumber'])
  })

  it.each([['0x10'], ['1e1'], ['101'], ['0'], ['10.0']])('refuses pageSize=%j', async (pageSize) => {
    expect((await parse({ pageSize })).failed).toEqual(['pageSize'])
  })
})

describe('toPage', () => {
  it('links neighbouring pages with plain integers', () => {
    expect(toPage([], 95, { pageNumber: 3, pageSize: 10 })).toEqual({
      totalItems: 95,
      hasNextPage: true,
      hasPreviousPage: true,
      nextPage: 4,
      previousPage: 2,
      lastPage: 10,
      data: [],
    })
  })
})
