import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { CredentialSchema } from './credential-schema.entity'
import { CredentialSchemaCheck } from './credential-schema-check'
import { buildCredentialJsonSchema } from './json-schema-builder'
import { PublishedSchemaUrls } from './published-schema-urls'
import type { SchemasRepository } from './schemas.repository'

const PUBLIC_URL = 'https://platform.example'
const urls = new PublishedSchemaUrls({ http: { publicUrl: `${PUBLIC_URL}/` } } as unknown as Config)

function aSchema(attributes: unknown[]): CredentialSchema {
  return Object.assign(new CredentialSchema(), {
    type: 'JSON',
    schemaType: 'NO_LEDGER',
    name: 'Person',
    version: '1.0',
    attributes,
    jsonSchema: buildCredentialJsonSchema({ name: 'Person', attributes }),
    createdBy: randomUUID(),
  })
}

/** The published schemas the check can look up; `lookups` counts repository reads. */
function checkWith(schemas: CredentialSchema[]) {
  const lookups: string[] = []
  const repository = {
    findPublished: async (id: string) => {
      lookups.push(id)
      return schemas.find((schema) => schema.id === id) ?? null
    },
  } as unknown as SchemasRepository
  return { check: new CredentialSchemaCheck(repository, urls), lookups }
}

const PERSON = aSchema([
  { attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true, minLength: 2 },
  { attributeName: 'age', displayName: 'Age', schemaDataType: 'integer', isRequired: false, minimum: 0 },
  {
    attributeName: 'tags',
    displayName: 'Tags',
    schemaDataType: 'array',
    isRequired: false,
    items: { schemaDataType: 'string', maxLength: 3 },
  },
  { attributeName: 'born', displayName: 'Born', schemaDataType: 'date', isRequired: false },
])

function aCredential(
  subject: Record<string, unknown>,
  credentialSchema: unknown = { id: urls.urlOf(PERSON.id), type: 'JsonSchema' },
) {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    type: ['VerifiableCredential', 'PersonCredential'],
    issuer: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    issuanceDate: '2026-11-24T10:00:00Z',
    credentialSchema,
    credentialSubject: { id: 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH', ...subject },
  }
}

async function failureOf(promise: Promise<void>): Promise<InvalidInputError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(InvalidInputError)
  return error as InvalidInputError
}

describe('CredentialSchemaCheck', () => {
  const orgId = randomUUID()

  it('accepts a credential that matches the platform schema it names', async () => {
    const { check } = checkWith([PERSON])
    await expect(
      check.check(orgId, aCredential({ name: 'Alice', age: 30, tags: ['a'], born: '1990-02-01' })),
    ).resolves.toBeUndefined()
  })

  it('lists every failing path with the reason', async () => {
    const { check } = checkWith([PERSON])
    const error = await failureOf(
      check.check(orgId, aCredential({ name: 'A', age: -1, tags: ['long'], born: '1990-13-45' })),
    )
    expect(error.fields).toEqual(
      expect.arrayContaining([
        { field: 'credentialSubject.name', message: 'must NOT have fewer than 2 characters' },
        { field: 'credentialSubject.age', message: 'must be >= 0' },
        { field: 'credentialSubject.tags[0]', message: 'must NOT have more than 3 characters' },
        { field: 'credentialSubject.born', message: 'must match format "date"' },
      ]),
    )
    expect(error.message).toContain('credentialSubject.age: must be >= 0')
    expect(error.message).toContain('Person 1.0')
  })

  it('names a missing required attribute in the path', async () => {
    const { check } = checkWith([PERSON])
    const error = await failureOf(check.check(orgId, aCredential({ age: 3 })))
    expect(error.fields).toEqual([{ field: 'credentialSubject.name', message: 'is required' }])
  })

  it('checks the credential envelope as well', async () => {
    const { check } = checkWith([PERSON])
    const credential: Record<string, unknown> = { ...aCredential({ name: 'Alice' }), issuanceDate: 'yesterday' }
    delete credential.issuer
    const error = await failureOf(check.check(orgId, credential))
    expect(error.fields.map((field) => field.field).sort()).toEqual(['issuanceDate', 'issuer'])
  })

  it('checks every entry of a credentialSchema array', async () => {
    const other = aSchema([
      { attributeName: 'email', displayName: 'E-mail', schemaDataType: 'string', isRequired: true },
    ])
    const { check } = checkWith([PERSON, other])
    const credential = aCredential({ name: 'Alice' }, [{ id: urls.urlOf(PERSON.id) }, { id: urls.urlOf(other.id) }])
    const error = await failureOf(check.check(orgId, credential))
    expect(error.fields).toEqual([{ field: 'credentialSubject.email', message: 'is required' }])
  })

  it('treats decimal multiples as a person would (0.3 is a multiple of 0.1)', async () => {
    const price = aSchema([
      { attributeName: 'price', displayName: 'Price', schemaDataType: 'number', isRequired: true, multipleOf: 0.1 },
    ])
    const { check } = checkWith([price])
    const credential = (amount: number) => aCredential({ price: amount }, { id: urls.urlOf(price.id) })
    await expect(check.check(orgId, credential(0.3))).resolves.toBeUndefined()
    const error = await failureOf(check.check(orgId, credential(0.35)))
    expect(error.fields).toEqual([{ field: 'credentialSubject.price', message: 'must be multiple of 0.1' }])
  })

  it('passes a credential that names no schema', async () => {
    const { check, lookups } = checkWith([PERSON])
    const credential: Record<string, unknown> = aCredential({ name: 1 })
    delete credential.credentialSchema
    await expect(check.check(orgId, credential)).resolves.toBeUndefined()
    expect(lookups).toEqual([])
  })

  it('refuses a schema URL that is not published by the platform, saying how to go on', async () => {
    const { check, lookups } = checkWith([PERSON])
    const error = await failureOf(
      check.check(orgId, aCredential({ name: 'Alice' }, { id: 'https://elsewhere.example/s.json' })),
    )
    expect(error.message).toContain('isValidateSchema=false')
    expect(error.fields).toEqual([
      { field: 'credentialSchema.id', message: expect.stringContaining('not a schema published') },
    ])
    expect(lookups).toEqual([])
  })

  it('refuses a URL of ours that names no schema, and a credentialSchema without an id', async () => {
    const { check } = checkWith([PERSON])
    const unknown = await failureOf(
      check.check(orgId, aCredential({ name: 'Alice' }, { id: urls.urlOf(randomUUID()) })),
    )
    expect(unknown.message).toContain('no schema is published')
    const garbage = await failureOf(
      check.check(orgId, aCredential({ name: 'Alice' }, { id: `${PUBLIC_URL}/schemas/../x` })),
    )
    expect(garbage.message).toContain('no schema is published')
    const noId = await failureOf(check.check(orgId, aCredential({ name: 'Alice' }, [{ type: 'JsonSchema' }])))
    expect(noId.fields).toEqual([{ field: 'credentialSchema[0].id', message: 'must be a URL' }])
  })

  it('compiles a schema once and again only when the record changes', async () => {
    const { check } = checkWith([PERSON])
    const compile = jest.spyOn((check as unknown as { ajv: { compile: (schema: unknown) => unknown } }).ajv, 'compile')
    await check.check(orgId, aCredential({ name: 'Alice' }))
    await check.check(orgId, aCredential({ name: 'Bob' }))
    expect(compile).toHaveBeenCalledTimes(1)
    PERSON.updatedAt = new Date(PERSON.updatedAt.getTime() + 1000)
    await check.check(orgId, aCredential({ name: 'Carol' }))
    expect(compile).toHaveBeenCalledTimes(2)
  })
})
