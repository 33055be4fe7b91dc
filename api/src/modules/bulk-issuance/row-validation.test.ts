import { buildCredentialJsonSchema } from '../schemas/json-schema-builder'
import { indyRowValidator, jsonSchemaRowValidator, RowChecker, typedCell } from './row-validation'
import { templateColumns } from './csv-template'
import { cpuClock } from '../../../../test/helpers/cpu-clock'

const attributes = [
  { attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true, maxLength: 10 },
  { attributeName: 'age', displayName: 'Age', schemaDataType: 'integer', isRequired: false, minimum: 0 },
  { attributeName: 'member', displayName: 'Member', schemaDataType: 'boolean', isRequired: false },
  { attributeName: 'born', displayName: 'Born', schemaDataType: 'date', isRequired: false },
  { attributeName: 'tags', displayName: 'Tags', schemaDataType: 'array', isRequired: false, maxItems: 2 },
]
const jsonSchema = buildCredentialJsonSchema({ name: 'Person', attributes } as never)

function checker(validate = true): RowChecker {
  return new RowChecker(
    templateColumns(attributes),
    validate ? jsonSchemaRowValidator(`test-${Math.random()}`, jsonSchema) : undefined,
  )
}

describe('typedCell', () => {
  it('types numbers, booleans and JSON by the column, and keeps text that does not parse', () => {
    expect(typedCell('42', 'integer')).toBe(42)
    expect(typedCell(' -1.5 ', 'number')).toBe(-1.5)
    expect(typedCell('4x', 'integer')).toBe('4x')
    expect(typedCell('TRUE', 'boolean')).toBe(true)
    expect(typedCell('no', 'boolean')).toBe('no')
    expect(typedCell('["a"]', 'array')).toEqual(['a'])
    expect(typedCell('{oops', 'object')).toBe('{oops')
    expect(typedCell('007', 'string')).toBe('007')
  })
})

describe('RowChecker', () => {
  it('builds the credentialSubject of a valid row, leaving empty optional cells out', () => {
    const row = checker().check({
      email: 'a@example.com',
      name: 'Ann',
      age: '30',
      member: 'true',
      born: '',
      tags: '["x"]',
    })
    expect(row).toEqual({
      email: 'a@example.com',
      attributes: { name: 'Ann', age: 30, member: true, tags: ['x'] },
      problems: [],
    })
  })

  it('names the column and the reason of each problem', () => {
    const row = checker().check({
      email: 'not-an-address',
      name: 'A very long name',
      age: '-1',
      member: 'maybe',
      born: '2024-13-45',
      tags: '[1,2,3]',
    })
    expect(row.problems).toEqual(
      expect.arrayContaining([
        { column: 'email', reason: 'is not an e-mail address' },
        { column: 'name', reason: 'must NOT have more than 10 characters' },
        { column: 'age', reason: 'must be >= 0' },
        { column: 'member', reason: 'must be boolean' },
        { column: 'born', reason: 'must match format "date"' },
        { column: 'tags', reason: 'must NOT have more than 2 items' },
      ]),
    )
  })

  it('checks a pattern on a hostile cell in linear time, and refuses a cell too long for a pattern', () => {
    const patterned = [
      { attributeName: 'code', displayName: 'Code', schemaDataType: 'string', isRequired: true, pattern: '(a|a?)+$' },
      { attributeName: 'run', displayName: 'Run', schemaDataType: 'string', isRequired: false, pattern: '^(a+)+$' },
    ]
    const rows = new RowChecker(
      templateColumns(patterned),
      jsonSchemaRowValidator(
        `test-${Math.random()}`,
        buildCredentialJsonSchema({ name: 'Code', attributes: patterned } as never),
      ),
    )
    const cpuMs = cpuClock()
    const hostile = rows.check({ email: 'a@example.com', code: 'a'.repeat(9_999) + '!', run: 'a'.repeat(9_999) + '!' })
    expect(cpuMs()).toBeLessThan(500)
    expect(hostile.problems).toEqual([{ column: 'run', reason: expect.stringMatching(/must match pattern/) }])
    const tooLong = rows.check({ email: 'a@example.com', code: 'a'.repeat(10_001), run: 'aaa' })
    expect(tooLong.problems).toEqual([
      { column: 'code', reason: expect.stringMatching(/longer than 10000 characters/) },
    ])
  })

  it('requires the e-mail and required attributes once, with or without schema validation', () => {
    for (const validate of [true, false]) {
      const row = checker(validate).check({ email: ' ', name: '', age: '', member: '', born: '', tags: '' })
      expect(row.problems).toEqual([
        { column: 'email', reason: 'is required' },
        { column: 'name', reason: 'is required' },
      ])
    }
  })

  it('does not check types and constraints with validation off', () => {
    const row = checker(false).check({ email: 'a@example.com', name: 'A very long name', age: 'old' })
    expect(row.problems).toEqual([])
    expect(row.attributes).toEqual({ name: 'A very long name', age: 'old' })
  })
})

describe('RowChecker for INDY templates', () => {
  const columns = templateColumns([
    { attributeName: 'name', schemaDataType: 'string', isRequired: true },
    { attributeName: 'score', schemaDataType: 'number', isRequired: true },
    { attributeName: 'graduated', schemaDataType: 'date', isRequired: false },
    { attributeName: 'at', schemaDataType: 'datetime', isRequired: false },
  ])
  const indy = (validate = true) => new RowChecker(columns, validate ? indyRowValidator(columns) : undefined, false)

  it('keeps every value as the text of its cell (AnonCreds signs text)', () => {
    const row = indy().check({
      email: 'a@example.com',
      name: 'Ann',
      score: '007',
      graduated: '2024-02-29',
      at: '2024-02-29T10:00:00Z',
    })
    expect(row).toEqual({
      email: 'a@example.com',
      attributes: { name: 'Ann', score: '007', graduated: '2024-02-29', at: '2024-02-29T10:00:00Z' },
      problems: [],
    })
  })

  it('checks numbers, calendar dates and ISO date-times with validation on, and nothing but required cells off', () => {
    const cells = { email: 'a@example.com', name: 'Ann', score: 'ten', graduated: '2023-02-29', at: 'noon' }
    expect(indy().check(cells).problems).toEqual([
      { column: 'score', reason: 'must be a number' },
      { column: 'graduated', reason: 'must be a date (YYYY-MM-DD)' },
      { column: 'at', reason: 'must be a date and time (ISO 8601)' },
    ])
    expect(indy(false).check(cells).problems).toEqual([])
    expect(indy(false).check({ email: 'a@example.com', name: '', score: '1' }).problems).toEqual([
      { column: 'name', reason: 'is required' },
    ])
  })
})
