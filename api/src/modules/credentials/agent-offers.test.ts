import type { ResolvedCredentialDefinition } from '@idplane/common/agent-contract/admin-api'
import { indyPlan, jsonLdPlan, withRevocation } from './agent-offers'

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
