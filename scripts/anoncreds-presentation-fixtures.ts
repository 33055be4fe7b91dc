// Writes test/fixtures/anoncreds-presentation/keys.json: two schemas and CL credential definitions (with their
// private parts and key correctness proofs) for the presentation tests, made once by our issuer because safe
// prime generation is the slow step (the WASM oracle takes minutes). Run:
//   node -r ./bench/register-ts.cjs scripts/anoncreds-presentation-fixtures.ts
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { createCredentialDefinition, createSchema } from '../agent/src/anoncreds'

async function definition(name: string, attributeNames: string[], issuerId: string) {
  const schema = createSchema({ name, version: '1.0', issuerId, attributeNames })
  const legacy = !issuerId.includes(':')
  const schemaId = legacy ? `${issuerId}:2:${name}:1.0` : `${issuerId}/schemas/${name}`
  const credDefId = legacy ? `${issuerId}:3:CL:${schemaId}:default` : `${issuerId}/cred-defs/${name}`
  const result = await createCredentialDefinition({ schemaId, schema, issuerId, tag: 'default' })
  return { issuerId, schemaId, credDefId, schema, ...result }
}

async function main(): Promise<void> {
  const person = await definition(
    'person',
    ['name', 'age', 'height', 'city', 'email', 'degree'],
    'did:web:issuer.example',
  )
  // A second key for the same schema: a presentation made under one must not verify under the other.
  const personOtherKey = {
    ...person,
    credDefId: `${person.issuerId}/cred-defs/person-other-key`,
    ...(await createCredentialDefinition({
      schemaId: person.schemaId,
      schema: person.schema,
      issuerId: person.issuerId,
      tag: 'other',
    })),
  }
  const fixtures = {
    person,
    personOtherKey,
    license: await definition('license', ['number', 'class', 'points'], 'NcYxiDXkpYi6ov5FcYDi1e'),
  }
  const file = join(__dirname, '..', 'test', 'fixtures', 'anoncreds-presentation', 'keys.json')
  writeFileSync(file, JSON.stringify(fixtures, null, 2) + '\n')
  console.log(`wrote ${file}`)
}

void main()
