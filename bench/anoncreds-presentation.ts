/**
 * The presentation part of `npm run bench:anoncreds`: a credential of the fixture's key, then presentation create and
 * verify of a request's shape, ours and the oracle's on the same request, credential and key. The wide shape (the
 * benchmark's ten attributes, two of them set to integers): 5 revealed attributes and 2 predicates (`>=` and `<=`).
 * The oracle verifies our presentations and we verify its own, so both sides check the same kind of proof.
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

/** What the request asks of the credential, and the raw values its predicates need. */
export interface PresentationShape {
  revealed: readonly string[]
  predicates: Record<string, { name: string; p_type: '>=' | '<='; p_value: number }>
  rawValues: Record<string, string>
}

/** 5 revealed attributes and 2 predicates over a key of at least 7 attributes. */
export function wideShape(attributeNames: readonly string[]): PresentationShape {
  if (attributeNames.length < 7) throw new Error('the wide presentation shape needs at least 7 attributes')
  const [ge, le] = [attributeNames[5], attributeNames[6]]
  return {
    revealed: attributeNames.slice(0, 5),
    predicates: {
      at_least: { name: ge, p_type: '>=', p_value: 18 },
      at_most: { name: le, p_type: '<=', p_value: 200 },
    },
    rawValues: { [ge]: '42', [le]: '170' },
  }
}

export interface PresentationBenchResult {
  create: { ours: number; oracle: number }
  verify: { ours: number; oracle: number }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function timed<T>(action: () => T): [number, T] {
  const started = performance.now()
  const value = action()
  return [performance.now() - started, value]
}

export function benchPresentationSteps(
  fixture: PresentationBenchFixture,
  iterations: number,
  shape: PresentationShape = wideShape(Object.keys(fixture.attributeRawValues)),
): PresentationBenchResult {
  const raw = { ...fixture.attributeRawValues, ...shape.rawValues }
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
  const { revealed } = shape
  const credentialsProve = [
    ...revealed.map((name) => ({ entryIndex: 0, referent: name, isPredicate: false, reveal: true })),
    ...Object.keys(shape.predicates).map((referent) => ({ entryIndex: 0, referent, isPredicate: true, reveal: true })),
  ]
  const samples = { create: [[], []] as number[][], verify: [[], []] as number[][] }
  for (let i = 0; i < iterations; i++) {
    const presentationRequest = {
      nonce: oracle.createNonce(),
      name: 'bench',
      version: '1.0',
      requested_attributes: Object.fromEntries(revealed.map((name) => [name, { name }])),
      requested_predicates: shape.predicates,
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
