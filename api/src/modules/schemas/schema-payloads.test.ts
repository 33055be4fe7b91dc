import { InvalidInputError, NotImplementedError } from '@idplane/common'
import {
  DEFAULT_JSON_SCHEMA_VERSION,
  MAX_INDY_ATTRIBUTES,
  readIndySchemaPayload,
  readJsonSchemaPayload,
} from './schema-payloads'

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

  it.each(['NO_LEDGER', 'no_ledger', 'no-ledger', 'W3C', 'w3c'])(
    'accepts %s as a schema the platform publishes',
    (schemaType) => {
      expect(readJsonSchemaPayload({ schemaName: 'B', schemaType, attributes: ATTRIBUTES }).schemaType).toBe(
        'NO_LEDGER',
      )
    },
  )

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
    expect(fieldsOf({ schemaName: ' ', schemaType: 'W4C', attributes: ATTRIBUTES })).toEqual([
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

describe('readIndySchemaPayload', () => {
  const attribute = (name: string, dataType = 'string') => ({
    attributeName: name,
    schemaDataType: dataType,
    displayName: name.toUpperCase(),
    isRequired: true,
  })

  function indyFieldsOf(payload: Record<string, unknown>): string[] {
    try {
      readIndySchemaPayload(payload)
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError)
      return (error as InvalidInputError).fields.map((field) => field.field)
    }
    throw new Error('the payload was accepted')
  }

  it('reads a payload with its attribute definitions and orgDid, trimmed', () => {
    expect(
      readIndySchemaPayload({
        schemaName: ' Degree ',
        schemaVersion: '1.0',
        attributes: [attribute('name'), attribute('age', 'number'), attribute('born', 'date')],
        orgDid: 'Th7MpTaRZVRYnPiabds81Y',
      }),
    ).toEqual({
      name: 'Degree',
      version: '1.0',
      attributes: [attribute('name'), attribute('age', 'number'), attribute('born', 'date')],
      orgDid: 'Th7MpTaRZVRYnPiabds81Y',
    })
  })

  it('keeps only the known fields of an attribute definition', () => {
    const read = readIndySchemaPayload({
      schemaName: 'Degree',
      schemaVersion: '2',
      attributes: [{ ...attribute('name'), minLength: 3, __extra: true }],
    })
    expect(read.attributes).toEqual([attribute('name')])
    expect(read.orgDid).toBeUndefined()
  })

  it('names every bad field', () => {
    expect(indyFieldsOf({})).toEqual([
      'schemaPayload.schemaName',
      'schemaPayload.schemaVersion',
      'schemaPayload.attributes',
    ])
    expect(indyFieldsOf({ schemaName: 'a:b', schemaVersion: 'v1', attributes: [attribute('a')] })).toEqual([
      'schemaPayload.schemaName',
      'schemaPayload.schemaVersion',
    ])
    expect(
      indyFieldsOf({
        schemaName: 'Degree',
        schemaVersion: '1.0',
        attributes: [
          { attributeName: 'a', schemaDataType: 'integer', displayName: 'A', isRequired: 'yes' },
          { schemaDataType: 'string', displayName: ' ', isRequired: true },
          'name',
        ],
      }),
    ).toEqual([
      'schemaPayload.attributes[0].schemaDataType',
      'schemaPayload.attributes[0].isRequired',
      'schemaPayload.attributes[1].attributeName',
      'schemaPayload.attributes[1].displayName',
      'schemaPayload.attributes[2]',
    ])
  })

  it('refuses attribute names that AnonCreds would take for one (case and spaces aside)', () => {
    expect(
      indyFieldsOf({
        schemaName: 'Degree',
        schemaVersion: '1.0',
        attributes: [attribute('First Name'), attribute('firstname')],
      }),
    ).toEqual(['schemaPayload.attributes[1].attributeName'])
  })

  it('refuses no attributes, too many, and a blank orgDid', () => {
    expect(indyFieldsOf({ schemaName: 'D', schemaVersion: '1', attributes: [] })).toEqual(['schemaPayload.attributes'])
    const many = Array.from({ length: MAX_INDY_ATTRIBUTES + 1 }, (_, index) => attribute(`a${index}`))
    expect(indyFieldsOf({ schemaName: 'D', schemaVersion: '1', attributes: many })).toEqual([
      'schemaPayload.attributes',
    ])
    expect(indyFieldsOf({ schemaName: 'D', schemaVersion: '1', attributes: [attribute('a')], orgDid: '' })).toEqual([
      'schemaPayload.orgDid',
    ])
  })
})
