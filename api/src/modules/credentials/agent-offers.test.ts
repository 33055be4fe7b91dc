import type { ResolvedCredentialDefinition } from '@idplane/common/agent-contract/admin-api'
import { STATUS_LIST_CONTEXT, statusListEntry } from '@idplane/common/bitstring-status-list'
import { indyPlan, issuerOf, jsonLdPlan, withRevocation, withStatus } from './agent-offers'

const definition = {
  credentialDefinitionId: 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/CLAIM_DEF/7/default',
  credentialDefinition: {
    issuerId: 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y',
    schemaId: 's',
    type: 'CL',
    tag: 'default',
  },
  schemaId: 'Th7MpTaRZVRYnPiabds81Y:2:member:1.0',
  schema: { name: 'member', version: '1.0', attrNames: ['name'], issuerId: 'Th7MpTaRZVRYnPiabds81Y' },
} as unknown as ResolvedCredentialDefinition

describe('withRevocation', () => {
  it('gives the agent and the record the registry and the index', () => {
    const plan = indyPlan(definition, { attributes: [{ name: 'name', value: 'Alice' }] }, 'v2')
    const revocable = withRevocation(plan, { revocationRegistryDefinitionId: 'reg-1', index: 7 })
    expect(revocable.format).toEqual({
      protocolVersion: 'v2',
      credentialFormats: {
        anoncreds: {
          credentialDefinitionId: definition.credentialDefinitionId,
          attributes: [{ name: 'name', value: 'Alice' }],
          revocationRegistryDefinitionId: 'reg-1',
          revocationRegistryIndex: 7,
        },
      },
    })
    expect(revocable.details).toEqual({ ...plan.details, revocationRegistryId: 'reg-1', revocationIndex: 7 })
    // The plan it came from is unchanged (plans are shared by the entries of one request).
    expect(
      'revocationRegistryIndex' in
        (plan.format as { credentialFormats: { anoncreds: object } }).credentialFormats.anoncreds,
    ).toBe(false)
  })

  it('leaves a JSON-LD plan as it is', () => {
    const plan = jsonLdPlan({
      credential: { type: ['VerifiableCredential'] },
      options: { proofType: 'x', proofPurpose: 'y' },
    })
    expect(withRevocation(plan, { revocationRegistryDefinitionId: 'reg-1', index: 7 })).toBe(plan)
  })
})

describe('withStatus', () => {
  const credential = {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    type: ['VerifiableCredential'],
    issuer: { id: 'did:key:z6MkIssuer' },
    issuanceDate: '2024-01-01T00:00:00Z',
    credentialSubject: { name: 'Alice' },
  }
  const options = { proofType: 'Ed25519Signature2020', proofPurpose: 'assertionMethod' }

  it('asks for nothing unless the entry asks for a status', () => {
    const plan = jsonLdPlan({ credential, options })
    expect(plan.details.statusPurpose).toBeUndefined()
    expect(
      jsonLdPlan({ credential, options, credentialStatus: { statusPurpose: 'suspension' } }).details,
    ).toMatchObject({ statusPurpose: 'suspension' })
    expect(issuerOf(credential)).toBe('did:key:z6MkIssuer')
    expect(issuerOf({ issuer: 'did:key:z6MkOther' })).toBe('did:key:z6MkOther')
    expect(issuerOf({})).toBeUndefined()
  })

  it('puts the entry and the status context in the credential, and the list and index in the record', () => {
    const plan = jsonLdPlan({ credential, options, credentialStatus: { statusPurpose: 'revocation' } })
    const entry = statusListEntry('https://api.example/v1/status-lists/l1', 'revocation', 4242)
    const issued = withStatus(plan, { statusListId: 'l1', index: 4242, purpose: 'revocation' }, entry)
    expect(issued.format).toMatchObject({
      credential: {
        '@context': ['https://www.w3.org/2018/credentials/v1', STATUS_LIST_CONTEXT],
        credentialStatus: entry,
      },
      options,
    })
    expect(issued.details).toMatchObject({ statusListId: 'l1', statusListIndex: 4242, statusPurpose: 'revocation' })
    // The plan it came from is untouched (pure).
    expect((plan.format as { credential: Record<string, unknown> }).credential.credentialStatus).toBeUndefined()
  })
})
