import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import type { AgentContext } from '@credo-ts/core'

import { TestAnonCredsRegistry } from './test-registry'

// The registry never looks at the context.
const context = {} as AgentContext
const didKey = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
const legacyDid = 'VGekVpqihCAwQWMtQ7gNTV'
const schema = (issuerId: string) => ({ issuerId, name: 'person', version: '1.0', attrNames: ['name', 'age'] })
const definition = (issuerId: string, schemaId: string) => ({
  issuerId,
  schemaId,
  type: 'CL' as const,
  tag: 'default',
  value: { primary: { n: '1' } },
})

describe('TestAnonCredsRegistry', () => {
  let directory: string

  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'test-registry-'))
  })
  afterEach(() => rmSync(directory, { recursive: true, force: true }))

  it('registers did:key objects under path identifiers that another instance on the same directory resolves', async () => {
    const issuer = new TestAnonCredsRegistry(directory)
    const other = new TestAnonCredsRegistry(directory)
    const registered = await issuer.registerSchema(context, { schema: schema(didKey), options: {} })
    expect(registered.schemaState).toMatchObject({
      state: 'finished',
      schemaId: `${didKey}/anoncreds/v0/SCHEMA/person/1.0`,
    })
    const schemaId = registered.schemaState.schemaId as string
    const definitionResult = await issuer.registerCredentialDefinition(context, {
      credentialDefinition: definition(didKey, schemaId),
      options: {},
    })
    const definitionId = definitionResult.credentialDefinitionState.credentialDefinitionId as string
    expect(definitionId).toMatch(new RegExp(`^${didKey}/anoncreds/v0/CLAIM_DEF/[0-9a-f]{16}/default$`))
    expect((await other.getSchema(context, schemaId)).schema).toEqual(schema(didKey))
    expect((await other.getCredentialDefinition(context, definitionId)).credentialDefinition).toEqual(
      definition(didKey, schemaId),
    )
    expect(readdirSync(directory).every((file) => file.endsWith('.json'))).toBe(true)
    expect(issuer.supportedIdentifier.test(schemaId) && issuer.supportedIdentifier.test(definitionId)).toBe(true)
  })

  it('gives legacy issuers legacy identifiers, resolvable by their did:indy form with its namespace', async () => {
    const registry = new TestAnonCredsRegistry(directory)
    const { schemaState } = await registry.registerSchema(context, { schema: schema(legacyDid), options: {} })
    expect(schemaState.schemaId).toBe(`${legacyDid}:2:person:1.0`)
    const { credentialDefinitionState } = await registry.registerCredentialDefinition(context, {
      credentialDefinition: definition(legacyDid, schemaState.schemaId as string),
      options: {},
    })
    const definitionId = credentialDefinitionState.credentialDefinitionId as string
    expect(definitionId).toMatch(new RegExp(`^${legacyDid}:3:CL:[1-9][0-9]*:default$`))
    const legacy = await registry.getSchema(context, `${legacyDid}:2:person:1.0`)
    expect(legacy.schemaMetadata).toEqual({ didIndyNamespace: 'idplane-test' })
    const qualified = await registry.getSchema(
      context,
      `did:indy:idplane-test:${legacyDid}/anoncreds/v0/SCHEMA/person/1.0`,
    )
    expect(qualified.schema?.issuerId).toBe(`did:indy:idplane-test:${legacyDid}`)
    const seqNo = definitionId.split(':')[3]
    const qualifiedDefinition = await registry.getCredentialDefinition(
      context,
      `did:indy:idplane-test:${legacyDid}/anoncreds/v0/CLAIM_DEF/${seqNo}/default`,
    )
    expect(qualifiedDefinition.credentialDefinition?.issuerId).toBe(`did:indy:idplane-test:${legacyDid}`)
    const badVersion = await registry.registerSchema(context, {
      schema: { ...schema(legacyDid), version: 'one' },
      options: {},
    })
    expect(badVersion.schemaState.state).toBe('failed')
  })

  it('keeps registrations append-only: the same object again is fine, a different one is refused', async () => {
    const registry = new TestAnonCredsRegistry(directory)
    expect((await registry.registerSchema(context, { schema: schema(didKey), options: {} })).schemaState.state).toBe(
      'finished',
    )
    expect((await registry.registerSchema(context, { schema: schema(didKey), options: {} })).schemaState.state).toBe(
      'finished',
    )
    const changed = await new TestAnonCredsRegistry(directory).registerSchema(context, {
      schema: { ...schema(didKey), attrNames: ['other'] },
      options: {},
    })
    expect(changed.schemaState).toMatchObject({ state: 'failed', reason: expect.stringMatching(/already registered/) })
  })

  it('answers notFound for unknown objects and for anything about revocation', async () => {
    const registry = new TestAnonCredsRegistry()
    expect((await registry.getSchema(context, `${didKey}/anoncreds/v0/SCHEMA/x/1`)).resolutionMetadata.error).toBe(
      'notFound',
    )
    expect((await registry.getRevocationStatusList(context, 'x', 0)).resolutionMetadata.error).toBe('notFound')
    expect((await registry.registerRevocationRegistryDefinition()).revocationRegistryDefinitionState.state).toBe(
      'failed',
    )
    expect(registry.supportedIdentifier.test('did:web:example.com')).toBe(false)
  })
})
