import { readFileSync } from 'node:fs'
import path from 'node:path'

import type { AgentContext } from '@credo-ts/core'

import { createNonce, createPresentation } from '../../anoncreds'
import { IdplaneAnonCredsHolderService } from './holder-service'
import { withFailureReason } from './reason-giving-proof-formats'
import { IdplaneAnonCredsVerifierService, withRevocationHint } from './verifier-service'

interface Fixture {
  schemaId: string
  schema: Record<string, unknown>
  credentialDefinitionId: string
  credentialDefinition: Record<string, unknown>
  linkSecret: string
  processedCredential: Record<string, unknown>
}

const fixture = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../../../test/fixtures/anoncreds/small.json'), 'utf8'),
) as Fixture

const logged: string[] = []
// The edge of this unit: the verifier only logs through the context.
const agentContext = {
  config: { logger: { info: (message: string) => logged.push(message) } },
} as unknown as AgentContext

function request(minimumAge: number) {
  return {
    name: 'check',
    version: '1.0',
    nonce: createNonce(),
    requested_attributes: { name: { name: 'name', restrictions: [{ cred_def_id: fixture.credentialDefinitionId }] } },
    requested_predicates: { adult: { name: 'age', p_type: '>=', p_value: minimumAge } },
  }
}

function present(proofRequest: ReturnType<typeof request>) {
  return createPresentation({
    presentationRequest: proofRequest,
    credentials: [{ credential: fixture.processedCredential }],
    credentialsProve: [
      { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
      { entryIndex: 0, referent: 'adult', isPredicate: true, reveal: true },
    ],
    linkSecret: fixture.linkSecret,
    schemas: { [fixture.schemaId]: fixture.schema },
    credentialDefinitions: { [fixture.credentialDefinitionId]: fixture.credentialDefinition },
  })
}

function verify(proofRequest: unknown, proof: unknown) {
  return new IdplaneAnonCredsVerifierService().verifyProof(agentContext, {
    proofRequest: proofRequest as never,
    proof: proof as never,
    schemas: { [fixture.schemaId]: fixture.schema as never },
    credentialDefinitions: { [fixture.credentialDefinitionId]: fixture.credentialDefinition as never },
    revocationRegistries: {},
  })
}

describe('IdplaneAnonCredsVerifierService', () => {
  const proofRequest = request(18)
  const proof = present(proofRequest)

  it('verifies a presentation made by our library for the request it answers', async () => {
    expect(await verify(proofRequest, proof)).toBe(true)
  })

  it('answers false, with the reason logged, for a tampered value, another nonce or a malformed proof', async () => {
    const tampered = JSON.parse(JSON.stringify(proof)) as {
      requested_proof: { revealed_attrs: Record<string, { raw: string }> }
    }
    tampered.requested_proof.revealed_attrs.name.raw = 'Mallory'
    expect(await verify(proofRequest, tampered)).toBe(false)
    expect(await verify({ ...proofRequest, nonce: createNonce() }, proof)).toBe(false)
    logged.length = 0
    expect(await verify(proofRequest, { proof: 'nonsense' })).toBe(false)
    expect(logged.join('\n')).toMatch(/malformed|does not verify/)
  })

  it('never throws for malformed revocation registries a presentation does not use', async () => {
    const withRegistries = (revocationRegistries: unknown) =>
      new IdplaneAnonCredsVerifierService().verifyProof(agentContext, {
        proofRequest: proofRequest as never,
        proof: proof as never,
        schemas: { [fixture.schemaId]: fixture.schema as never },
        credentialDefinitions: { [fixture.credentialDefinitionId]: fixture.credentialDefinition as never },
        revocationRegistries: revocationRegistries as never,
      })
    // A presentation without non-revocation proofs does not read them (the library's tests cover malformed ones).
    expect(await withRegistries({ 'rev-reg': {} })).toBe(true)
    expect(await withRegistries({ 'rev-reg': null })).toBe(true)
    expect(await withRegistries({ 'rev-reg': { definition: 'x', revocationStatusLists: { 1: 'nonsense' } } })).toBe(
      true,
    )
  })

  it('tells the reason to the presentation processing it runs under, and to none outside one', async () => {
    const tampered = JSON.parse(JSON.stringify(proof)) as {
      requested_proof: { revealed_attrs: Record<string, { raw: string }> }
    }
    tampered.requested_proof.revealed_attrs.name.raw = 'Mallory'
    const failed = await withFailureReason(() => verify(proofRequest, tampered))
    expect(failed).toEqual({ result: false, reason: expect.stringMatching(/name/) })
    expect(await withFailureReason(() => verify(proofRequest, proof))).toEqual({ result: true, reason: undefined })
    const malformed = await withFailureReason(() => verify(proofRequest, { proof: 'nonsense' }))
    expect(malformed.reason).toMatch(/^the presentation is malformed: /)
    // Concurrent verifications keep their own reasons.
    const [a, b] = await Promise.all([
      withFailureReason(() => verify(proofRequest, tampered)),
      withFailureReason(() => verify(proofRequest, proof)),
    ])
    expect([a.reason !== undefined, b.reason]).toEqual([true, undefined])
    expect(await verify(proofRequest, tampered)).toBe(false)
  })
})

describe('IdplaneAnonCredsHolderService (context-free parts)', () => {
  const holder = new IdplaneAnonCredsHolderService()

  it('makes decimal nonces of at most 80 bits, different each time', () => {
    const nonces = new Set(Array.from({ length: 20 }, () => holder.generateNonce()))
    expect(nonces.size).toBe(20)
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[0-9]+$/)
      expect(BigInt(nonce) < 2n ** 80n).toBe(true)
    }
  })

  it('creates link secrets under the given id or a fresh one', async () => {
    const named = await holder.createLinkSecret(agentContext, { linkSecretId: 'mine' })
    expect(named.linkSecretId).toBe('mine')
    expect(named.linkSecretValue).toMatch(/^[0-9]+$/)
    const unnamed = await holder.createLinkSecret(agentContext)
    expect(unnamed.linkSecretId).not.toBe('mine')
    expect(unnamed.linkSecretValue).not.toBe(named.linkSecretValue)
  })

  it('refuses W3C AnonCreds operations clearly', async () => {
    await expect(holder.createW3cPresentation()).rejects.toThrow(/W3C AnonCreds/)
    await expect(holder.legacyToW3cCredential()).rejects.toThrow(/W3C AnonCreds/)
  })

  it('rejects an unmet predicate when creating a presentation', () => {
    expect(() => present(request(30))).toThrow(/predicate/i)
  })
})

describe('withRevocationHint', () => {
  const registry = 'Th7MpTaRZVRYnPiabds81Y:4:Th7MpTaRZVRYnPiabds81Y:3:CL:7:default:CL_ACCUM:r1'
  const options = (revocationList: number[]) =>
    ({
      proof: { identifiers: [{ schema_id: 's', cred_def_id: 'c', rev_reg_id: registry, timestamp: 20 }] },
      revocationRegistries: { [registry]: { definition: {}, revocationStatusLists: { 20: { revocationList } } } },
    }) as never

  it('names the status lists that revoke credentials among those the proof was checked against', () => {
    expect(withRevocationHint('the challenge does not match', options([0, 1, 1, 0]))).toBe(
      `the credential is revoked, or the proof was altered: its non-revocation proof does not hold against the ` +
        `status list of registry ${registry} at 20 (2 revoked); the challenge does not match`,
    )
  })

  it('leaves the reason as it is when no list revokes any, or the proof has no non-revocation part', () => {
    expect(withRevocationHint('the challenge does not match', options([0, 0, 0, 0]))).toBe(
      'the challenge does not match',
    )
    expect(withRevocationHint('x', { proof: { identifiers: [{ rev_reg_id: null, timestamp: null }] } } as never)).toBe(
      'x',
    )
    expect(withRevocationHint('x', { proof: {} } as never)).toBe('x')
  })
})
