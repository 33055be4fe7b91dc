/**
 * The whole revocation flow on a credential definition of ours (`supportRevocation: true`): its JSON against the
 * anoncreds-rs one of the published test vectors, then registry, issuance at an index, holder state, a proof that
 * verifies, revocation (the new proof fails) and the earlier interval (still verifies).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { createCredential, processCredential } from '../credential'
import {
  createCredentialDefinition,
  readCredentialDefinition,
  readCredentialDefinitionPrivate,
  type CreateCredentialDefinitionResult,
} from '../credential-definition'
import { createCredentialOffer } from '../credential-offer'
import { createCredentialRequest } from '../credential-request'
import { createLinkSecret } from '../link-secret'
import { createPresentation } from '../presentation'
import { createSchema } from '../schema'
import { checkPresentation } from '../verify'
import { createRevocationRegistryDefinition, createRevocationStatusList, updateRevocationStatusList } from './registry'
import { createOrUpdateRevocationState } from './revocation-state'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const dir = path.join(__dirname, '../../../../test/fixtures/anoncreds-revocation')
const published = JSON.parse(readFileSync(path.join(dir, 'anoncreds-credential-definition.json'), 'utf8'))

/** Every object's keys in order, recursively; the CL key's per-attribute map `r` emptied (other attributes). */
function shape(value: unknown, key = ''): unknown {
  if (key === 'r' && value !== null && typeof value === 'object') return 'attributes'
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])]
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([k, v]) => [k, shape(v, k)])
  return value === null ? null : typeof value
}

const ISSUER = 'did:example:revoking-issuer'
const SCHEMA_ID = `${ISSUER}/anoncreds/v0/SCHEMA/member/1.0`
const CRED_DEF_ID = `${ISSUER}/anoncreds/v0/CLAIM_DEF/member/revocable`
const REV_REG_ID = `${CRED_DEF_ID}/REV_REG/1`

describe('a revocable credential definition of ours, end to end', () => {
  let definition: CreateCredentialDefinitionResult
  const schema = createSchema({ name: 'member', version: '1.0', issuerId: ISSUER, attributeNames: ['name', 'level'] })

  beforeAll(async () => {
    definition = await createCredentialDefinition({
      schemaId: SCHEMA_ID,
      schema,
      issuerId: ISSUER,
      tag: 'revocable',
      supportRevocation: true,
    })
  }, 180_000)

  it('has the anoncreds-rs JSON, revocation keys included, and a private key that belongs to it', () => {
    expect(shape(definition.credentialDefinition)).toEqual(shape(published.credentialDefinition))
    expect(shape(definition.credentialDefinitionPrivate)).toEqual(shape(published.credentialDefinitionPrivate))
    const parsed = readCredentialDefinition(definition.credentialDefinition)
    expect(parsed.json).toEqual(definition.credentialDefinition)
    expect(readCredentialDefinitionPrivate(definition.credentialDefinitionPrivate, parsed).revocation).not.toBeNull()
  })

  it('issues, proves non-revocation, and fails after revocation except for the earlier interval', async () => {
    const { credentialDefinition, credentialDefinitionPrivate, keyCorrectnessProof } = definition
    const registry = await createRevocationRegistryDefinition({
      credentialDefinition,
      credentialDefinitionId: CRED_DEF_ID,
      issuerId: ISSUER,
      tag: '1',
      maximumCredentialNumber: 8,
      tailsLocation: 'https://tails.example/1',
    })
    const list1 = createRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinitionId: REV_REG_ID,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      timestamp: 1000,
    }) as Json
    const offer = createCredentialOffer({
      schemaId: SCHEMA_ID,
      credentialDefinitionId: CRED_DEF_ID,
      keyCorrectnessProof,
    })
    const linkSecret = createLinkSecret()
    const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
      entropy: 'holder',
      credentialDefinition,
      linkSecret,
      linkSecretId: 'default',
      credentialOffer: offer,
    })
    const credential = processCredential({
      credential: createCredential({
        credentialDefinition,
        credentialDefinitionPrivate,
        credentialOffer: offer,
        credentialRequest,
        attributeRawValues: { name: 'Ada', level: '3' },
        revocationConfiguration: {
          revocationRegistryDefinition: registry.revocationRegistryDefinition,
          revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
          revocationStatusList: list1,
          registryIndex: 7,
        },
      }),
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
    })
    const state = (list: Json, old?: { state: unknown; list: Json }) =>
      createOrUpdateRevocationState({
        revocationRegistryDefinition: registry.revocationRegistryDefinition,
        revocationStatusList: list,
        revocationRegistryIndex: 7,
        tailsFile: registry.tailsFile,
        oldRevocationState: old?.state,
        oldRevocationStatusList: old?.list,
      })
    const request = (from: number) => ({
      name: 'membership',
      version: '1.0',
      nonce: '98765432109876543210',
      requested_attributes: { name: { name: 'name', restrictions: [{ cred_def_id: CRED_DEF_ID }] } },
      requested_predicates: { senior: { name: 'level', p_type: '>=', p_value: 2 } },
      non_revoked: { from, to: from + 500 },
    })
    const proveAndCheck = (revocationState: unknown, presentationRequest: Json, lists: Json[]) =>
      checkPresentation({
        presentation: createPresentation({
          presentationRequest,
          credentials: [{ credential, revocationState }],
          credentialsProve: [
            { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
            { entryIndex: 0, referent: 'senior', isPredicate: true, reveal: true },
          ],
          linkSecret,
          schemas: { [SCHEMA_ID]: schema },
          credentialDefinitions: { [CRED_DEF_ID]: credentialDefinition },
        }),
        presentationRequest,
        schemas: { [SCHEMA_ID]: schema },
        credentialDefinitions: { [CRED_DEF_ID]: credentialDefinition },
        revocationRegistryDefinitions: { [REV_REG_ID]: registry.revocationRegistryDefinition },
        revocationStatusLists: lists,
      })

    const state1 = state(list1)
    expect(proveAndCheck(state1, request(900), [list1])).toEqual({ valid: true })

    const list2 = updateRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      revocationStatusList: list1,
      revoked: [7],
      timestamp: 2000,
    }) as Json
    const state2 = state(list2, { state: state1, list: list1 })
    expect(proveAndCheck(state2, request(1900), [list1, list2])).toMatchObject({ valid: false })
    expect(proveAndCheck(state1, request(900), [list1, list2])).toEqual({ valid: true })
  })
})
