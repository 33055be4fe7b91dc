/**
 * Generates the anoncreds-rs oracle fixtures once: the oracle's credential definition takes minutes (safe
 * primes in WASM), so tests load these instead. For each schema: the oracle's schema, credential definition
 * (public, private, key correctness proof), a link secret, and a full oracle issuance (offer, request and
 * its metadata, credential as issued and as processed).
 *
 *   node -r ./bench/register-ts.cjs scripts/anoncreds-fixtures.ts [small|ten ...]
 *
 * A set whose file already holds a credential definition keeps it (only the issuance is redone), so a run
 * that stopped halfway resumes without regenerating primes; delete the file to start that set afresh.
 * Run `npx prettier --write test/fixtures/anoncreds` afterwards (npm run lint checks the JSON's layout).
 * On the shared 2-core machine the oracle took 526 s (2 attributes) and 1776 s (10 attributes) at load 15-20.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { oracle } from '../test/helpers/anoncreds-oracle'

const FIXTURE_DIR = join(__dirname, '..', 'test', 'fixtures', 'anoncreds')
const ISSUER_ID = 'did:example:oracle-issuer'

interface FixtureSet {
  attributeNames: string[]
  attributeRawValues: Record<string, string>
}

export const FIXTURE_SETS: Record<string, FixtureSet> = {
  small: {
    attributeNames: ['name', 'age'],
    attributeRawValues: { name: 'Alex', age: '28' },
  },
  ten: {
    attributeNames: [
      'first_name',
      'last_name',
      'Date Of Birth',
      'age',
      'height',
      'email',
      'degree',
      'gpa',
      'employee_id',
      'salary',
    ],
    attributeRawValues: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      'Date Of Birth': '19151210',
      age: '36',
      height: '165',
      email: 'ada@example.org',
      degree: 'Mathematics',
      gpa: '3.9',
      employee_id: '-42',
      salary: '4294967296',
    },
  },
}

function generate(name: string, set: FixtureSet): void {
  const file = join(FIXTURE_DIR, `${name}.json`)
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  const schemaId = (previous.schemaId as string) ?? `${ISSUER_ID}/anoncreds/v0/SCHEMA/${name}/1.0`
  const credentialDefinitionId =
    (previous.credentialDefinitionId as string) ?? `${ISSUER_ID}/anoncreds/v0/CLAIM_DEF/${name}/default`
  const schema =
    (previous.schema as Record<string, unknown>) ??
    oracle.createSchema({ name, version: '1.0', issuerId: ISSUER_ID, attributeNames: set.attributeNames })

  let definition = previous.credentialDefinition
    ? {
        credentialDefinition: previous.credentialDefinition as Record<string, unknown>,
        credentialDefinitionPrivate: previous.credentialDefinitionPrivate as Record<string, unknown>,
        keyCorrectnessProof: previous.keyCorrectnessProof as Record<string, unknown>,
      }
    : undefined
  if (!definition) {
    const started = Date.now()
    definition = oracle.createCredentialDefinition({ schemaId, schema, issuerId: ISSUER_ID, tag: 'default' })
    console.log(`${name}: oracle credential definition in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    // Saved at once so a failure in the issuance below does not cost the primes again.
    writeFileSync(file, JSON.stringify({ schemaId, schema, credentialDefinitionId, ...definition }, null, 1) + '\n')
  }

  const linkSecret = oracle.createLinkSecret()
  const linkSecretId = 'oracle-link-secret'
  const credentialOffer = oracle.createCredentialOffer({
    schemaId,
    credentialDefinitionId,
    keyCorrectnessProof: definition.keyCorrectnessProof,
  })
  const { credentialRequest, credentialRequestMetadata } = oracle.createCredentialRequest({
    credentialDefinition: definition.credentialDefinition,
    linkSecret,
    linkSecretId,
    credentialOffer,
  })
  const credential = oracle.createCredential({
    credentialDefinition: definition.credentialDefinition,
    credentialDefinitionPrivate: definition.credentialDefinitionPrivate,
    credentialOffer,
    credentialRequest,
    attributeRawValues: set.attributeRawValues,
  })
  const processedCredential = oracle.processCredential({
    credential,
    credentialRequestMetadata,
    linkSecret,
    credentialDefinition: definition.credentialDefinition,
  })
  const fixture = {
    schemaId,
    schema,
    credentialDefinitionId,
    ...definition,
    linkSecret,
    linkSecretId,
    attributeRawValues: set.attributeRawValues,
    credentialOffer,
    credentialRequest,
    credentialRequestMetadata,
    credential,
    processedCredential,
  }
  writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n')
  console.log(`${name}: wrote ${file}`)
}

function main(): void {
  mkdirSync(FIXTURE_DIR, { recursive: true })
  const names = process.argv.slice(2)
  for (const name of names.length > 0 ? names : Object.keys(FIXTURE_SETS)) {
    const set = FIXTURE_SETS[name]
    if (!set) throw new Error(`unknown fixture set ${name}; have ${Object.keys(FIXTURE_SETS).join(', ')}`)
    generate(name, set)
  }
}

main()
