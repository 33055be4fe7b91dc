import { InvalidInputError, NotImplementedError } from '@idplane/common'
import { DEFAULT_JSON_SCHEMA_VERSION, readJsonSchemaPayload } from './schema-payloads'

const ATTRIBUTES = [{ attributeName: 'a', displayName: 'A', schemaDataType: 'string', isRequired: true }]

function fieldsOf(payload: Record<string, unknown>): string[] {
  try {
    readJsonSchemaPayload(payload)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return (error as InvalidInputError).fields.map((field) => field.field)
  }
  throw new Error('the payload was accepted')
}

describe('readJsonSchemaPayload', () => {
  it('reads a payload, trimming the name and defaulting the version', () => {
    expect(
      readJsonSchemaPayload({
        schemaName: ' Badge ',
        schemaType: 'no-ledger',
        attributes: ATTRIBUTES,
        description: 'd',
      }),
    ).toEqual({
      name: 'Badge',
      version: DEFAULT_JSON_SCHEMA_VERSION,
      description: 'd',
      schemaType: 'NO_LEDGER',
      attributes: ATTRIBUTES,
    })
    expect(
      readJsonSchemaPayload({ schemaName: 'B', schemaVersion: '2.0-rc.1', schemaType: 'NO_LEDGER', attributes: [] })
        .version,
    ).toBe('2.0-rc.1')
  })

  it.each(['POLYGON_W3C', 'polygon', 'polygon-w3c'])(
    'answers %s with NotImplementedError naming the supported type',
    (schemaType) => {
      expect(() => readJsonSchemaPayload({ schemaName: 'B', schemaType, attributes: ATTRIBUTES })).toThrow(
        NotImplementedError,
      )
      expect(() => readJsonSchemaPayload({ schemaName: 'B', schemaType, attributes: ATTRIBUTES })).toThrow(/NO_LEDGER/)
    },
  )

  it('names every bad field', () => {
    expect(fieldsOf({})).toEqual(['schemaPayload.schemaName', 'schemaPayload.schemaType', 'schemaPayload.attributes'])
    expect(fieldsOf({ schemaName: ' ', schemaType: 'W3C', attributes: ATTRIBUTES })).toEqual([
      'schemaPayload.schemaName',
      'schemaPayload.schemaType',
    ])
    expect(
      fieldsOf({ schemaName: 'B', schemaVersion: '1 0', schemaType: 'NO_LEDGER', attributes: ATTRIBUTES }),
    ).toEqual(['schemaPayload.schemaVersion'])
    expect(fieldsOf({ schemaName: 'B', description: 7, schemaType: 'NO_LEDGER', attributes: ATTRIBUTES })).toEqual([
      'schemaPayload.description',
    ])
    expect(fieldsOf({ schemaName: 'x'.repeat(257), schemaType: 'NO_LEDGER', attributes: ATTRIBUTES })).toEqual([
      'schemaPayload.schemaName',
    ])
  })
})
