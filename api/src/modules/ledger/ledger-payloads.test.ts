import { readFileSync } from 'node:fs'
import path from 'node:path'
import { InvalidInputError } from '@idplane/common'
import {
  checkCredDefAgainstSchema,
  readAttribPayload,
  readCredDefPayload,
  readRevRegDefPayload,
  readRevRegEntryPayload,
  readSchemaPayload,
  type CredDefPayload,
} from './ledger-payloads'

const fixtures = path.join(__dirname, '../../../../test/fixtures/anoncreds-revocation')
const fixture = (name: string) => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8'))
/** Objects anoncreds-rs made (published test vectors): what the ledger must take as they are. */
const revocableDefinition = fixture('anoncreds-credential-definition').credentialDefinition
const registryDefinition = fixture('anoncreds-revocation-registry-definition').revocationRegistryDefinition
const statusList = fixture('anoncreds-revocation-status-list')

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
    const revocable = { schemaId: 's', type: 'CL', tag: 't', value: { primary, revocation: { g: '1 AB' } } }
    expect(fieldsOf(() => readCredDefPayload(revocable))).toEqual([
      'payload.value.revocation.g',
      'payload.value.revocation.h',
      'payload.value.revocation.h0',
      'payload.value.revocation.h1',
      'payload.value.revocation.h2',
      'payload.value.revocation.htilde',
      'payload.value.revocation.pk',
      'payload.value.revocation.g_dash',
      'payload.value.revocation.h_cap',
      'payload.value.revocation.u',
      'payload.value.revocation.y',
    ])
    const extra = { ...revocable, value: { primary, revocation: { ...revocableDefinition.value.revocation, x: '1' } } }
    expect(fieldsOf(() => readCredDefPayload(extra))).toEqual(['payload.value.revocation'])
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

  it("accepts anoncreds-rs' revocable credential definition with its revocation key", () => {
    const { schemaId: _schemaId, issuerId: _issuerId, ...rest } = revocableDefinition
    const payload = readCredDefPayload({ ...rest, schemaId: 'Th7MpTaRZVRYnPiabds81Y:2:schema-1:1' })
    expect(payload.value.revocation).toEqual(revocableDefinition.value.revocation)
  })

  describe('REVOC_REG_DEF', () => {
    const credDefId = 'Th7MpTaRZVRYnPiabds81Y:3:CL:12:default'
    // The vectors' tailsLocation is a path on the machine that made them; a ledger's is an http(s) URL.
    const tailsLocation = `https://tails.example/${registryDefinition.value.tailsHash}`
    const { issuerId: _issuerId, ...definition } = {
      ...registryDefinition,
      credDefId,
      value: { ...registryDefinition.value, tailsLocation },
    }

    it("accepts anoncreds-rs' registry definition with a legacy credential definition id", () => {
      expect(readRevRegDefPayload(definition)).toEqual(definition)
    })

    it('refuses each malformed field by name', () => {
      const value = definition.value
      const cases: [unknown, string[]][] = [
        [
          { ...definition, credDefId: `did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/CLAIM_DEF/12/default` },
          ['payload.credDefId'],
        ],
        [{ ...definition, revocDefType: 'CL' }, ['payload.revocDefType']],
        [{ ...definition, tag: 'a/b' }, ['payload.tag']],
        [{ ...definition, issuerId: 'x' }, ['payload']],
        [{ ...definition, value: { ...value, maxCredNum: 1 } }, ['payload.value.maxCredNum']],
        [{ ...definition, value: { ...value, maxCredNum: 2 ** 20 + 1 } }, ['payload.value.maxCredNum']],
        [{ ...definition, value: { ...value, maxCredNum: '10' } }, ['payload.value.maxCredNum']],
        [{ ...definition, value: { ...value, tailsHash: '3mmSR' } }, ['payload.value.tailsHash']],
        [{ ...definition, value: { ...value, tailsLocation: 'file:///etc/passwd' } }, ['payload.value.tailsLocation']],
        [
          { ...definition, value: { ...value, publicKeys: { accumKey: { z: '1 AB 1 CD' } } } },
          ['payload.value.publicKeys.accumKey.z'],
        ],
        [
          {
            ...definition,
            value: { ...value, publicKeys: { accumKey: { z: value.publicKeys.accumKey.z.replace('1 ', '0 ') } } },
          },
          ['payload.value.publicKeys.accumKey.z'],
        ],
      ]
      for (const [payload, fields] of cases) expect(fieldsOf(() => readRevRegDefPayload(payload))).toEqual(fields)
    })
  })

  describe('REVOC_REG_ENTRY', () => {
    const revRegDefId = 'Th7MpTaRZVRYnPiabds81Y:4:Th7MpTaRZVRYnPiabds81Y:3:CL:12:default:CL_ACCUM:r1'
    const accum = statusList.currentAccumulator as string
    const entry = (value: Record<string, unknown>) => ({ revRegDefId, revocDefType: 'CL_ACCUM', value })

    it("accepts deltas on anoncreds-rs' accumulators", () => {
      expect(readRevRegEntryPayload(entry({ accum }))).toEqual(entry({ accum }))
      const next = entry({ accum, prevAccum: accum, issued: [1, 2], revoked: [7] })
      expect(readRevRegEntryPayload(next)).toEqual(next)
    })

    it('refuses malformed ids, accumulators and indices by name', () => {
      const cases: [unknown, string[]][] = [
        [{ ...entry({ accum }), revRegDefId: 'Th7MpTaRZVRYnPiabds81Y:3:CL:12:default' }, ['payload.revRegDefId']],
        // A registry's credential definition is its author's: the two DIDs of a legacy id are one.
        [{ ...entry({ accum }), revRegDefId: revRegDefId.replace(':4:Th7M', ':4:Zh7M') }, ['payload.revRegDefId']],
        [{ ...entry({ accum }), revocDefType: 'X' }, ['payload.revocDefType']],
        [entry({ accum: '1 AB' }), ['payload.value.accum']],
        [entry({ accum, prevAccum: `${accum} 1 AB` }), ['payload.value.prevAccum']],
        [entry({ accum, issued: [0] }), ['payload.value.issued']],
        [entry({ accum, issued: [1.5] }), ['payload.value.issued']],
        [entry({ accum, revoked: '1' }), ['payload.value.revoked']],
        [entry({ accum, revoked: [2, 2] }), ['payload.value.revoked']],
        [entry({ accum, issued: [3, 4], revoked: [4] }), ['payload.value.revoked']],
        [entry({ accum, other: 1 }), ['payload.value']],
      ]
      for (const [payload, fields] of cases) expect(fieldsOf(() => readRevRegEntryPayload(payload))).toEqual(fields)
    })
  })
})
