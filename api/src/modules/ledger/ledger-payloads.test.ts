import { InvalidInputError } from '@idplane/common'
import {
  checkCredDefAgainstSchema,
  readAttribPayload,
  readCredDefPayload,
  readSchemaPayload,
  type CredDefPayload,
} from './ledger-payloads'

function fieldsOf(work: () => unknown): string[] {
  try {
    work()
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields.map((field) => field.field)
    throw error
  }
  throw new Error('expected InvalidInputError')
}

const primary = { n: '1', s: '2', rctxt: '3', z: '4', r: { name: '5', age: '6', master_secret: '7' } }

describe('ledger payloads', () => {
  it('accepts a schema and refuses bad names, versions and attribute lists', () => {
    expect(readSchemaPayload({ name: 'degree', version: '1.0', attrNames: ['name', 'age'] }).attrNames).toHaveLength(2)
    expect(fieldsOf(() => readSchemaPayload({ name: 'a:b', version: '1.0', attrNames: ['x'] }))).toEqual([
      'payload.name',
    ])
    expect(fieldsOf(() => readSchemaPayload({ name: 'a', version: 'one', attrNames: ['x'] }))).toEqual([
      'payload.version',
    ])
    expect(fieldsOf(() => readSchemaPayload({ name: 'a', version: '1', attrNames: [] }))).toEqual(['payload.attrNames'])
    expect(fieldsOf(() => readSchemaPayload({ name: 'a', version: '1', attrNames: ['A b', 'ab'] }))).toEqual([
      'payload.attrNames',
    ])
    expect(fieldsOf(() => readSchemaPayload({ name: 'a', version: '1', attrNames: Array(126).fill('x') }))).toEqual([
      'payload.attrNames',
    ])
    expect(fieldsOf(() => readSchemaPayload({ name: 'a', version: '1', attrNames: ['x'], extra: 1 }))).toEqual([
      'payload',
    ])
    expect(fieldsOf(() => readSchemaPayload({ name: '\ud800', version: '1', attrNames: ['x'] }))).toEqual([
      'payload.name',
    ])
  })

  it('accepts a CL cred-def and checks its keys against the schema attributes (common view) plus master_secret', () => {
    const payload = readCredDefPayload({ schemaId: 's', type: 'CL', tag: 'default', value: { primary } })
    expect(() => checkCredDefAgainstSchema(payload, ['Name', 'age'])).not.toThrow()
    expect(fieldsOf(() => checkCredDefAgainstSchema(payload, ['name']))).toEqual(['payload.value.primary.r'])
    expect(fieldsOf(() => checkCredDefAgainstSchema(payload, ['name', 'age', 'email']))).toEqual([
      'payload.value.primary.r',
    ])
    const bad = { schemaId: 's', type: 'CL', tag: 'default', value: { primary: { ...primary, n: '0x10' } } }
    expect(fieldsOf(() => readCredDefPayload(bad))).toEqual(['payload.value.primary.n'])
    expect(fieldsOf(() => readCredDefPayload({ ...bad, type: 'CL2', value: { primary } }))).toEqual(['payload.type'])
    const revocable = { schemaId: 's', type: 'CL', tag: 't', value: { primary, revocation: {} } }
    expect(fieldsOf(() => readCredDefPayload(revocable))).toEqual(['payload.value.revocation'])
    const typed: CredDefPayload = payload
    expect(typed.value.primary.r.master_secret).toBe('7')
  })

  it('accepts an endpoint ATTRIB in Indy shape and refuses other URLs and shapes', () => {
    const did = 'Th7MpTaRZVRYnPiabds81Y'
    expect(readAttribPayload({ dest: did, raw: { endpoint: { endpoint: 'https://a.example/x' } } }).dest).toBe(did)
    expect(fieldsOf(() => readAttribPayload({ dest: did, raw: { endpoint: { endpoint: 'javascript:x' } } }))).toEqual([
      'payload.raw.endpoint.endpoint',
    ])
    expect(fieldsOf(() => readAttribPayload({ dest: did, raw: { other: 1 } }))).toEqual(['payload.raw'])
    expect(
      fieldsOf(() => readAttribPayload({ dest: did, raw: { endpoint: { endpoint: 'ws://a', routingKeys: 'k' } } })),
    ).toEqual(['payload.raw.endpoint.routingKeys'])
  })
})
