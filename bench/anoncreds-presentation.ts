/**
 * The presentation part of `npm run bench:anoncreds`: a credential with the benchmark's ten attributes (two of
 * them set to integers for the predicates), then presentation create and verify with 5 revealed attributes
 * and 2 predicates (`>=` and `<=`), ours and the oracle's on the same request, credential and key. The oracle
 * verifies our presentations and we verify its own, so both sides check the same kind of proof.
 */
import { performance } from 'node:perf_hooks'

import {
  createCredential,
  createCredentialOffer,
  createCredentialRequest,
  createLinkSecret,
  createPresentation,
  processCredential,
  verifyPresentation,
} from '../agent/src/anoncreds'
import { oracle } from '../test/helpers/anoncreds-oracle'

export interface PresentationBenchFixture {
  schemaId: string
  schema: object
  credentialDefinitionId: string
  credentialDefinition: object
  credentialDefinitionPrivate: object
  keyCorrectnessProof: object
  attributeRawValues: Record<string, string>
}

export interface PresentationBenchResult {
  create: { ours: number; oracle: number }
  verify: { ours: number; oracle: number }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function timed<T>(action: () => T): [number, T] {
  const started = performance.now()
  const value = action()
  return [performance.now() - started, value]
}

export function benchPresentationSteps(fixture: PresentationBenchFixture, iterations: number): PresentationBenchResult {
  const names = Object.keys(fixture.attributeRawValues)
  if (names.length < 7) throw new Error('the presentation benchmark needs at least 7 attributes')
  const [ge, le] = [names[5], names[6]]
  const raw = { ...fixture.attributeRawValues, [ge]: '42', [le]: '170' }
  const linkSecret = createLinkSecret()
  const offer = createCredentialOffer({
    schemaId: fixture.schemaId,
    credentialDefinitionId: fixture.credentialDefinitionId,
    keyCorrectnessProof: fixture.keyCorrectnessProof as never,
  })
  const request = createCredentialRequest({
    entropy: 'bench',
    credentialDefinition: fixture.credentialDefinition as never,
    linkSecret,
    linkSecretId: 'bench',
    credentialOffer: offer as never,
  })
  const credential = processCredential({
    credential: createCredential({
      credentialDefinition: fixture.credentialDefinition as never,
      credentialDefinitionPrivate: fixture.credentialDefinitionPrivate as never,
      credentialOffer: offer as never,
      credentialRequest: request.credentialRequest as never,
      attributeRawValues: raw,
    }) as never,
    credentialRequestMetadata: request.credentialRequestMetadata as never,
    linkSecret,
    credentialDefinition: fixture.credentialDefinition as never,
  }) as unknown as Record<string, unknown>

  const schemas = { [fixture.schemaId]: fixture.schema as Record<string, unknown> }
  const credentialDefinitions = {
    [fixture.credentialDefinitionId]: fixture.credentialDefinition as Record<string, unknown>,
  }
  const revealed = names.slice(0, 5)
  const credentialsProve = [
    ...revealed.map((name) => ({ entryIndex: 0, referent: name, isPredicate: false, reveal: true })),
    { entryIndex: 0, referent: 'at_least', isPredicate: true, reveal: true },
    { entryIndex: 0, referent: 'at_most', isPredicate: true, reveal: true },
  ]
  const samples = { create: [[], []] as number[][], verify: [[], []] as number[][] }
  for (let i = 0; i < iterations; i++) {
    const presentationRequest = {
      nonce: oracle.createNonce(),
      name: 'bench',
      version: '1.0',
      requested_attributes: Object.fromEntries(revealed.map((name) => [name, { name }])),
      requested_predicates: {
        at_least: { name: ge, p_type: '>=', p_value: 18 },
        at_most: { name: le, p_type: '<=', p_value: 200 },
      },
    }
    const [createOurs, ours] = timed(() =>
      createPresentation({
        presentationRequest,
        credentials: [{ credential }],
        credentialsProve,
        linkSecret,
        schemas,
        credentialDefinitions,
      }),
    )
    const [createOracle, theirs] = timed(() =>
      oracle.createPresentation({ presentationRequest, credential, linkSecret, schemas, credentialDefinitions }),
    )
    const [verifyOurs, oursValid] = timed(() =>
      verifyPresentation({ presentation: theirs, presentationRequest, schemas, credentialDefinitions }),
    )
    const [verifyOracle, oracleValid] = timed(() =>
      oracle.verifyPresentation({ presentation: ours as never, presentationRequest, schemas, credentialDefinitions }),
    )
    if (!oursValid || !oracleValid)
      throw new Error(`presentation not verified (ours ${oursValid}, oracle ${oracleValid})`)
    samples.create[0].push(createOurs)
    samples.create[1].push(createOracle)
    samples.verify[0].push(verifyOurs)
    samples.verify[1].push(verifyOracle)
  }
  return {
    create: { ours: median(samples.create[0]), oracle: median(samples.create[1]) },
    verify: { ours: median(samples.verify[0]), oracle: median(samples.verify[1]) },
  }
}
