/**
 * The non-revocation part of an AnonCreds presentation, in this process with the agent's own AnonCreds code
 * (agent/src/anoncreds): one credential (a revealed attribute and a predicate) presented and verified with a
 * `non_revoked` interval and without one, from the same inputs (the anoncreds-rs test vectors' credential definition,
 * a registry of `size`, the credential at index 42). The difference of the two is what non-revocation costs, for
 * creating and for verifying apart (issue 25's target: under 100 ms each). Used by `bench:revocation` and
 * `bench:revocation-crypto`.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { createCredential, processCredential } from '../agent/src/anoncreds/credential'
import { createCredentialRequest } from '../agent/src/anoncreds/credential-request'
import { createPresentation } from '../agent/src/anoncreds/presentation'
import {
  createRevocationRegistryDefinition,
  createRevocationStatusList,
} from '../agent/src/anoncreds/revocation/registry'
import { createOrUpdateRevocationState } from '../agent/src/anoncreds/revocation/revocation-state'
import { checkPresentation } from '../agent/src/anoncreds/verify'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const fixtures = path.join(__dirname, '../test/fixtures/anoncreds-revocation')
/** One of the anoncreds-rs oracle's revocation fixtures (test/fixtures/anoncreds-revocation), parsed. */
export const fixture = (name: string): Json => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8'))

/** Means of `runs` timed runs after one warm-up, in ms: wall time and this process's CPU time. */
export interface Timing {
  wallMs: number
  cpuMs: number
  runs: number
}

export interface PresentationTimings {
  create: { withNonRevoked: Timing; without: Timing }
  verify: { withNonRevoked: Timing; without: Timing }
}

async function time(runs: number, action: () => unknown): Promise<Timing> {
  await action()
  const cpu = process.cpuUsage()
  const start = performance.now()
  for (let i = 0; i < runs; i++) await action()
  const wallMs = (performance.now() - start) / runs
  const used = process.cpuUsage(cpu)
  return { wallMs, cpuMs: (used.user + used.system) / 1000 / runs, runs }
}

/** Builds the inputs (a registry of `size` with its tails file: seconds) and times both variants `runs` times. */
export async function timePresentations(size: number, runs: number): Promise<PresentationTimings> {
  const { credentialDefinition, credentialDefinitionPrivate } = fixture('anoncreds-credential-definition')
  const offer = fixture('anoncreds-credential-offer')
  const schema = fixture('anoncreds-schema')
  const { linkSecret, linkSecretId } = fixture('anoncreds-link-secret')
  const credDefId = offer.cred_def_id as string
  const schemaId = offer.schema_id as string
  const revRegDefId = `${credDefId}/rev/${size}`
  const registry = await createRevocationRegistryDefinition({
    credentialDefinition,
    credentialDefinitionId: credDefId,
    issuerId: credentialDefinition.issuerId,
    tag: `bench-presentation-${size}`,
    maximumCredentialNumber: size,
    tailsLocation: 'https://tails.example/bench',
  })
  const list = createRevocationStatusList({
    credentialDefinition,
    revocationRegistryDefinitionId: revRegDefId,
    revocationRegistryDefinition: registry.revocationRegistryDefinition,
    revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
    timestamp: 100,
  })
  const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
    entropy: 'bench',
    credentialDefinition,
    linkSecret,
    linkSecretId,
    credentialOffer: offer,
  })
  const issued = (revocable: boolean) =>
    processCredential({
      credential: createCredential({
        credentialDefinition,
        credentialDefinitionPrivate,
        credentialOffer: offer,
        credentialRequest,
        attributeRawValues: { id: 'did:example:holder', name: 'Alex', age: '28', sex: 'male', height: '175' },
        revocationConfiguration: revocable
          ? {
              revocationRegistryDefinition: registry.revocationRegistryDefinition,
              revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
              revocationStatusList: list,
              registryIndex: 42,
            }
          : undefined,
      }),
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition,
      revocationRegistryDefinition: revocable ? registry.revocationRegistryDefinition : undefined,
    })
  const plainCredential = issued(false)
  const revocableCredential = issued(true)
  const state = createOrUpdateRevocationState({
    revocationRegistryDefinition: registry.revocationRegistryDefinition,
    revocationStatusList: list,
    revocationRegistryIndex: 42,
    tailsFile: registry.tailsFile,
  })

  // The same request but for `non_revoked`; the same credential values, definition and link secret.
  const request = (nonRevoked: boolean) => ({
    name: 'bench',
    version: '1.0',
    nonce: '1234567890',
    requested_attributes: { name: { name: 'name' } },
    requested_predicates: { adult: { name: 'age', p_type: '>=', p_value: 18 } },
    ...(nonRevoked ? { non_revoked: { from: 50, to: 150 } } : {}),
  })
  const present = (nonRevoked: boolean) =>
    createPresentation({
      presentationRequest: request(nonRevoked),
      credentials: [
        nonRevoked ? { credential: revocableCredential, revocationState: state } : { credential: plainCredential },
      ],
      credentialsProve: [
        { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
        { entryIndex: 0, referent: 'adult', isPredicate: true, reveal: true },
      ],
      linkSecret,
      schemas: { [schemaId]: schema },
      credentialDefinitions: { [credDefId]: credentialDefinition },
    })
  const verify = (presentation: unknown, nonRevoked: boolean) => {
    const result = checkPresentation({
      presentation: JSON.parse(JSON.stringify(presentation)),
      presentationRequest: request(nonRevoked),
      schemas: { [schemaId]: schema },
      credentialDefinitions: { [credDefId]: credentialDefinition },
      revocationRegistryDefinitions: { [revRegDefId]: registry.revocationRegistryDefinition },
      revocationStatusLists: [list],
    })
    if (!result.valid) throw new Error(`The bench's presentation does not verify: ${result.reason}`)
  }
  const withNonRevoked = present(true)
  const without = present(false)
  const createWithout = await time(runs, () => present(false))
  const createWith = await time(runs, () => present(true))
  const verifyWithout = await time(runs, () => verify(without, false))
  const verifyWith = await time(runs, () => verify(withNonRevoked, true))
  return {
    create: { withNonRevoked: createWith, without: createWithout },
    verify: { withNonRevoked: verifyWith, without: verifyWithout },
  }
}
