/**
 * Revocable credentials end to end: the anoncreds-rs objects of the published test vectors processed by our holder
 * (known answers), then our issuer on the anoncreds-rs credential definition with a registry of ours: issue with an
 * index, holder state from the tails file, presentations with non-revocation proofs, revocation, state updates and
 * un-revocation; the JSON shapes field for field against anoncreds-rs'.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

import fc from 'fast-check'

import { createCredential, processCredential } from '../credential'
import { readCredentialDefinition, readCredentialDefinitionPrivate } from '../credential-definition'
import { createCredentialRequest } from '../credential-request'
import { AnonCredsError } from '../errors'
import { createPresentation } from '../presentation'
import { checkPresentation } from '../verify'
import { Fr } from './bn254'
import { g1Mul } from './multiply'
import { parseG1, parseScalar } from './encoding'
import { readRevocationPublicKey } from './keys'
import {
  checkTailsFile,
  createRevocationRegistryDefinition,
  createRevocationStatusList,
  updateRevocationStatusList,
} from './registry'
import { createOrUpdateRevocationState } from './revocation-state'
import { buildTailsFile, computeTailsFileInWorkers } from './tails'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const dir = path.join(__dirname, '../../../../test/fixtures/anoncreds-revocation')
const fixture = (name: string): Json => JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8'))
const clone = <T>(value: T): T => structuredClone(value)

const definitionFixture = fixture('anoncreds-credential-definition')
const credentialDefinition = definitionFixture.credentialDefinition
const credentialDefinitionPrivate = definitionFixture.credentialDefinitionPrivate
const registryFixture = fixture('anoncreds-revocation-registry-definition')
const requestFixture = fixture('anoncreds-credential-request')
const issuedFixture = fixture('anoncreds-legacy-credential')
const offer = fixture('anoncreds-credential-offer')
const schema = fixture('anoncreds-schema')
const { linkSecret, linkSecretId } = fixture('anoncreds-link-secret')
const schemaId = offer.schema_id as string
const credDefId = offer.cred_def_id as string

/** Every object's keys in order, recursively (arrays by their first element): the JSON's shape. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])]
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([key, item]) => [key, shape(item)])
  return value === null ? null : typeof value
}

function anonCredsErrorOf(action: () => unknown): AnonCredsError {
  try {
    action()
  } catch (error) {
    if (error instanceof AnonCredsError) return error
    throw error
  }
  throw new Error('expected an AnonCredsError')
}

describe('a credential issued by anoncreds-rs with revocation (published test vectors)', () => {
  const process = (overrides: Partial<Parameters<typeof processCredential>[0]> = {}) =>
    processCredential({
      credential: issuedFixture,
      credentialRequestMetadata: requestFixture.credentialRequestMetadata,
      linkSecret,
      credentialDefinition,
      revocationRegistryDefinition: registryFixture.revocationRegistryDefinition,
      ...overrides,
    })

  it('is processed: vr_prime joins vr_prime_prime and the non-revocation signature and witness check out', () => {
    const processed = process()
    const vrPrime = parseScalar(requestFixture.credentialRequestMetadata.link_secret_blinding_data.vr_prime, 'vr')
    const issued = parseScalar(issuedFixture.signature.r_credential.vr_prime_prime, 'vr')
    expect(parseScalar(processed.signature.r_credential?.vr_prime_prime, 'vr')).toBe(Fr.add(issued, vrPrime))
    // Field for field the anoncreds-rs credential, the registry state and the other signature values unchanged.
    expect(shape(processed)).toEqual(shape(issuedFixture))
    expect(processed.rev_reg_id).toBe(issuedFixture.rev_reg_id)
    expect(processed.rev_reg).toEqual(issuedFixture.rev_reg)
    expect(processed.witness).toEqual(issuedFixture.witness)
    const { vr_prime_prime: _ours, ...rest } = processed.signature.r_credential ?? {}
    const { vr_prime_prime: _theirs, ...published } = issuedFixture.signature.r_credential
    expect(rest).toEqual(published)
  })

  it("matches anoncreds-rs' blinding: the request's ur is h2^vr_prime", () => {
    const key = readRevocationPublicKey(credentialDefinition.value.revocation, 'revocation')
    const vrPrime = parseScalar(requestFixture.credentialRequestMetadata.link_secret_blinding_data.vr_prime, 'vr')
    expect(g1Mul(key.h2, vrPrime).equals(parseG1(requestFixture.credentialRequest.blinded_ms.ur, 'ur'))).toBe(true)
  })

  it("reads the private revocation key and refuses one that is not the definition's", () => {
    const definition = readCredentialDefinition(credentialDefinition)
    expect(readCredentialDefinitionPrivate(credentialDefinitionPrivate, definition).revocation).not.toBeNull()
    const swapped = clone(credentialDefinitionPrivate)
    swapped.value.r_key = { x: swapped.value.r_key.sk, sk: swapped.value.r_key.x }
    expect(anonCredsErrorOf(() => readCredentialDefinitionPrivate(swapped, definition)).kind).toBe('invalid')
    const without = clone(credentialDefinitionPrivate)
    without.value.r_key = null
    expect(anonCredsErrorOf(() => readCredentialDefinitionPrivate(without, definition)).kind).toBe('invalid')
  })

  it('refuses a tampered credential, a missing registry definition or vr_prime, another registry', () => {
    const tampered = clone(issuedFixture)
    tampered.witness.omega = tampered.rev_reg.accum
    expect(anonCredsErrorOf(() => process({ credential: tampered })).kind).toBe('invalid')
    const otherC = clone(issuedFixture)
    otherC.signature.r_credential.c = otherC.signature.r_credential.vr_prime_prime
    expect(anonCredsErrorOf(() => process({ credential: otherC })).kind).toBe('invalid')
    expect(anonCredsErrorOf(() => process({ revocationRegistryDefinition: undefined })).message).toMatch(
      /needs its revocation registry definition/,
    )
    const metadata = clone(requestFixture.credentialRequestMetadata)
    metadata.link_secret_blinding_data.vr_prime = null
    expect(anonCredsErrorOf(() => process({ credentialRequestMetadata: metadata })).message).toMatch(/vr_prime/)
    const otherRegistry = clone(registryFixture.revocationRegistryDefinition)
    otherRegistry.value.publicKeys.accumKey.z = fixture('indy-credx-presentation').revRegDef.value.publicKeys.accumKey.z
    expect(anonCredsErrorOf(() => process({ revocationRegistryDefinition: otherRegistry })).kind).toBe('invalid')
    const malformed = clone(issuedFixture)
    malformed.signature.r_credential.sigma = 'not a point'
    expect(anonCredsErrorOf(() => process({ credential: malformed })).kind).toBe('malformed')
  })
})

describe('our issuer and holder with a revocation registry', () => {
  const revRegDefId = `${credDefId}/revocation-registry/ours`
  const values = { id: 'did:example:holder', name: 'Alex', age: '28', sex: 'male', height: '175' }
  let registry: Awaited<ReturnType<typeof createRevocationRegistryDefinition>>
  let list100: Json

  beforeAll(async () => {
    registry = await createRevocationRegistryDefinition({
      credentialDefinition,
      credentialDefinitionId: credDefId,
      issuerId: credentialDefinition.issuerId,
      tag: 'ours',
      maximumCredentialNumber: 12,
      tailsLocation: 'https://tails.example/ours',
      tailsThreads: 0,
    })
    list100 = createRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinitionId: revRegDefId,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      timestamp: 100,
    }) as Json
  })

  function issue(index: number, list: Json = list100) {
    const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
      entropy: `holder-${index}`,
      credentialDefinition,
      linkSecret,
      linkSecretId,
      credentialOffer: offer,
    })
    const credential = createCredential({
      credentialDefinition,
      credentialDefinitionPrivate,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: values,
      revocationConfiguration: {
        revocationRegistryDefinition: registry.revocationRegistryDefinition,
        revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
        revocationStatusList: list,
        registryIndex: index,
      },
    })
    const processed = processCredential({
      credential,
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
    })
    return { credentialRequest, credentialRequestMetadata, credential, processed }
  }

  function state(index: number, list: Json, old?: { state: unknown; list: Json }) {
    return createOrUpdateRevocationState({
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationStatusList: list,
      revocationRegistryIndex: index,
      tailsFile: registry.tailsFile,
      oldRevocationState: old?.state,
      oldRevocationStatusList: old?.list,
    })
  }

  const request = (nonRevoked: { from?: number; to?: number }) => ({
    name: 'revocation check',
    version: '1.0',
    nonce: '1234567890123456789',
    requested_attributes: { name: { name: 'name' } },
    requested_predicates: { adult: { name: 'age', p_type: '>=', p_value: 18 } },
    non_revoked: nonRevoked,
  })

  function prove(credential: unknown, revocationState: unknown, presentationRequest: Json, timestamp?: number) {
    return createPresentation({
      presentationRequest,
      credentials: [{ credential, revocationState, timestamp }],
      credentialsProve: [
        { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
        { entryIndex: 0, referent: 'adult', isPredicate: true, reveal: true },
      ],
      linkSecret,
      schemas: { [schemaId]: schema },
      credentialDefinitions: { [credDefId]: credentialDefinition },
    }) as Json
  }

  const check = (presentation: unknown, presentationRequest: Json, lists: Json[]) =>
    checkPresentation({
      presentation,
      presentationRequest,
      schemas: { [schemaId]: schema },
      credentialDefinitions: { [credDefId]: credentialDefinition },
      revocationRegistryDefinitions: { [revRegDefId]: registry.revocationRegistryDefinition },
      revocationStatusLists: lists,
    })

  it('writes requests, credentials, registries and status lists with the anoncreds-rs shape', () => {
    const { credentialRequest, credentialRequestMetadata, credential, processed } = issue(1)
    expect(shape(credentialRequest)).toEqual(shape(requestFixture.credentialRequest))
    expect(shape(credentialRequestMetadata)).toEqual(shape(requestFixture.credentialRequestMetadata))
    expect(shape({ ...credential, values: {} })).toEqual(shape({ ...issuedFixture, values: {} }))
    expect(shape({ ...processed, values: {} })).toEqual(shape({ ...issuedFixture, values: {} }))
    expect(shape(registry.revocationRegistryDefinition)).toEqual(shape(registryFixture.revocationRegistryDefinition))
    expect(shape(registry.revocationRegistryDefinitionPrivate)).toEqual(
      shape(registryFixture.revocationRegistryDefinitionPrivate),
    )
    expect(shape(list100)).toEqual(shape(fixture('anoncreds-revocation-status-list')))
    expect(credential.rev_reg_id).toBe(revRegDefId)
    expect(credential.signature.r_credential?.i).toBe(1)
    // Issued by default: the accumulator does not move, the credential carries the list's.
    expect(credential.rev_reg?.accum).toBe(list100.currentAccumulator)
  })

  it('computes from the tails file the witness the issuer computed from gamma, and proves non-revocation', () => {
    const { processed, credential } = issue(3)
    const holderState = state(3, list100)
    expect(holderState.witness).toEqual(credential.witness)
    expect(holderState.rev_reg).toEqual(credential.rev_reg)
    expect(Object.keys(holderState)).toEqual(['witness', 'rev_reg', 'timestamp'])
    const req = request({ from: 50, to: 150 })
    const presentation = prove(processed, holderState, req)
    expect(presentation.identifiers).toEqual([
      { schema_id: schemaId, cred_def_id: credDefId, rev_reg_id: revRegDefId, timestamp: 100 },
    ])
    expect(Object.keys(presentation.proof.proofs[0])).toEqual(['primary_proof', 'non_revoc_proof'])
    expect(check(presentation, req, [list100])).toEqual({ valid: true })
  })

  it('revokes: the new proof fails, a proof for an interval before the revocation still verifies', () => {
    const revokedOne = issue(3)
    const other = issue(5)
    const list300 = updateRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      revocationStatusList: list100,
      revoked: [3],
      timestamp: 300,
    }) as Json
    expect(list300.revocationList[3]).toBe(1)
    const lists = [list100, list300]
    const after = request({ from: 250 })
    const before = request({ from: 50, to: 150 })

    // The revoked holder still builds a proof (as with anoncreds-rs); the verifier answers false.
    const stale = state(3, list100)
    const revokedState = state(3, list300, { state: stale, list: list100 })
    const revokedProof = prove(revokedOne.processed, revokedState, after)
    expect(check(revokedProof, after, lists)).toEqual({
      valid: false,
      reason: 'the challenge does not match (tampered proof or wrong nonce)',
      proofFails: true,
    })
    // Its state at the earlier list proves the earlier interval.
    expect(check(prove(revokedOne.processed, stale, before), before, lists)).toEqual({ valid: true })
    // Proving against the old list for the new interval: outside the interval.
    expect(check(prove(revokedOne.processed, stale, after), after, lists)).toMatchObject({ valid: false })

    // Another holder's witness follows the change, updated or recomputed alike, and still proves.
    const updated = state(5, list300, { state: state(5, list100), list: list100 })
    expect(updated).toEqual(state(5, list300))
    expect(check(prove(other.processed, updated, after), after, lists)).toEqual({ valid: true })

    // Un-revoking restores the credential.
    const list400 = updateRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      revocationStatusList: list300,
      issued: [3],
      timestamp: 400,
    }) as Json
    expect(list400.currentAccumulator).toBe(list100.currentAccumulator)
    const restored = state(3, list400, { state: revokedState, list: list300 })
    const later = request({ from: 350 })
    expect(check(prove(revokedOne.processed, restored, later), later, [...lists, list400])).toEqual({ valid: true })
  })

  it('issues on demand: an index whose bit is set is added to the accumulator the credential carries', () => {
    const onDemand = createRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinitionId: revRegDefId,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      issuanceByDefault: false,
      timestamp: 10,
    }) as Json
    const { credential } = issue(4, onDemand)
    // The issuer publishes the index as issued; the list's accumulator is then the credential's.
    const published = updateRevocationStatusList({
      credentialDefinition,
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      revocationStatusList: onDemand,
      issued: [4],
      timestamp: 20,
    })
    expect(published.currentAccumulator).toBe(credential.rev_reg?.accum)
  })

  it('verifies strictly: a revocable credential must prove non-revocation when the request asks for it', () => {
    const { processed } = issue(6)
    const req = request({ from: 50, to: 150 })
    const good = prove(processed, state(6, list100), req)
    const withoutProof = clone(good)
    withoutProof.proof.proofs[0].non_revoc_proof = null
    expect(check(withoutProof, req, [list100])).toEqual({
      valid: false,
      reason: 'sub proof 0 has no non-revocation proof',
    })
    const unnamed = clone(good)
    unnamed.identifiers[0].rev_reg_id = null
    expect(check(unnamed, req, [list100])).toMatchObject({ valid: false })
    // Without any state: anoncreds-rs would give no timestamp, which fails an interval.
    const plain = prove(processed, undefined, req)
    expect(plain.identifiers[0]).toEqual({
      schema_id: schemaId,
      cred_def_id: credDefId,
      rev_reg_id: revRegDefId,
      timestamp: null,
    })
    expect(check(plain, req, [list100])).toEqual({
      valid: false,
      reason: 'credential 0 has no timestamp for its non-revocation proof',
    })
    // ... and is fine for a request that does not ask about revocation.
    const { non_revoked: _omit, ...noInterval } = req
    expect(check(prove(processed, undefined, noInterval), noInterval, [])).toEqual({ valid: true })
    // The verifier was not given the registry or the list: false with the reason.
    expect(
      checkPresentation({
        presentation: good,
        presentationRequest: req,
        schemas: { [schemaId]: schema },
        credentialDefinitions: { [credDefId]: credentialDefinition },
      }),
    ).toEqual({ valid: false, reason: `revocation registry ${revRegDefId} was not given` })
    expect(check(good, req, [])).toEqual({ valid: false, reason: `no status list of ${revRegDefId} at 100 was given` })
  })

  it('refuses bad issuance and holder inputs with typed errors', () => {
    const base = issue(2)
    const config = (overrides: Json) => ({
      revocationRegistryDefinition: registry.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
      revocationStatusList: list100,
      registryIndex: 2,
      ...overrides,
    })
    const issueWith = (revocationConfiguration: Json, credentialRequest: unknown = base.credentialRequest) =>
      createCredential({
        credentialDefinition,
        credentialDefinitionPrivate,
        credentialOffer: offer,
        credentialRequest,
        attributeRawValues: values,
        revocationConfiguration: revocationConfiguration as never,
      })
    for (const registryIndex of [0, 12, 13, 1.5, -1])
      expect(anonCredsErrorOf(() => issueWith(config({ registryIndex }))).kind).toBe('malformed')
    const { revRegDefId: _id, ...anonymous } = list100
    expect(anonCredsErrorOf(() => issueWith(config({ revocationStatusList: anonymous }))).kind).toBe('malformed')
    const withoutUr = clone(base.credentialRequest) as Json
    withoutUr.blinded_ms.ur = null
    expect(anonCredsErrorOf(() => issueWith(config({}), withoutUr)).message).toMatch(/ur/)
    expect(() =>
      createOrUpdateRevocationState({
        revocationRegistryDefinition: registry.revocationRegistryDefinition,
        revocationStatusList: list100,
        revocationRegistryIndex: 2,
        // One byte changed whatever it was (filling it with a constant left the file as it was 1 time in 256).
        tailsFile: Uint8Array.from(registry.tailsFile).map((byte, index) => (index === 500 ? byte ^ 0xff : byte)),
      }),
    ).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringMatching(/tailsHash/) }))
    expect(() => checkTailsFile(registry.tailsFile, registry.revocationRegistryDefinition)).not.toThrow()
    expect(
      anonCredsErrorOf(() => checkTailsFile(registry.tailsFile.subarray(1), registry.revocationRegistryDefinition))
        .kind,
    ).toBe('invalid')
    expect(anonCredsErrorOf(() => checkTailsFile('tails', registry.revocationRegistryDefinition)).kind).toBe(
      'malformed',
    )
    expect(anonCredsErrorOf(() => state(13, list100)).kind).toBe('malformed')
    const { timestamp: _t, ...untimed } = list100
    expect(anonCredsErrorOf(() => state(2, untimed)).kind).toBe('invalid')
    expect(anonCredsErrorOf(() => prove(base.processed, { witness: 1 }, request({}))).kind).toBe('malformed')
    expect(anonCredsErrorOf(() => prove(base.processed, undefined, request({}), 100)).kind).toBe('invalid')
    expect(anonCredsErrorOf(() => prove(base.processed, state(2, list100), request({}), 99)).kind).toBe('invalid')
    expect(
      anonCredsErrorOf(() =>
        updateRevocationStatusList({
          credentialDefinition,
          revocationRegistryDefinition: registry.revocationRegistryDefinition,
          revocationRegistryDefinitionPrivate: registry.revocationRegistryDefinitionPrivate,
          revocationStatusList: list100,
          revoked: [0],
        }),
      ).kind,
    ).toBe('malformed')
  })

  /** Every path into `value` (the first three elements of arrays). */
  function pathsOf(value: unknown): (string | number)[][] {
    const paths: (string | number)[][] = []
    const walk = (item: unknown, at: (string | number)[]) => {
      paths.push(at)
      if (Array.isArray(item)) item.slice(0, 3).forEach((v, i) => walk(v, [...at, i]))
      else if (typeof item === 'object' && item !== null) Object.entries(item).forEach(([k, v]) => walk(v, [...at, k]))
    }
    walk(value, [])
    return paths.slice(1)
  }

  function replaced<T>(value: T, at: (string | number)[], replacement: unknown): T {
    const copy = clone(value) as Json
    let parent = copy
    for (const key of at.slice(0, -1)) parent = parent[key]
    parent[at[at.length - 1]] = replacement
    return copy as T
  }

  /** Replacement values: JSON of any kind, big numbers, and revocation-looking text (points, scalars, infinity). */
  const replacements = () => {
    const points = [
      list100.currentAccumulator,
      credentialDefinition.value.revocation.h,
      credentialDefinition.value.revocation.u,
    ]
    return fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.bigInt({ min: -(2n ** 64n), max: 2n ** 300n }).map(String),
      fc.constantFrom(...points),
      fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map((v) => v.toString(16).toUpperCase().padStart(64, '0')),
      fc.constant(`1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)}`),
      fc.integer({ min: -2, max: 14 }),
    )
  }

  it('answers any mutation of a presentation with a non-revocation proof, or of what the verifier is given, with false or an AnonCredsError', () => {
    const { processed } = issue(7)
    const req = request({ from: 50, to: 150 })
    const good = prove(processed, state(7, list100), req)
    const verifierInputs = {
      list: list100,
      registry: registry.revocationRegistryDefinition,
      revocation: credentialDefinition.value.revocation,
    }
    const presentationPaths = pathsOf(good).filter(
      (at) => at.includes('non_revoc_proof') || at[0] === 'identifiers' || (at.includes('c_list') && Number(at[3]) < 7),
    )
    const inputPaths = pathsOf(verifierInputs)
    // Fields the verifier does not read: the bits (the accumulator speaks for them), the tails' hash and place.
    const unread = ['revocationList', 'tailsHash', 'tailsLocation', 'tag', 'issuerId', 'maxCredNum']
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), replacements(), (inPresentation, pick, replacement) => {
        const paths = inPresentation ? presentationPaths : inputPaths
        const at = paths[pick % paths.length]
        const presentation = inPresentation ? replaced(good, at, replacement) : good
        const inputs = inPresentation ? verifierInputs : replaced(verifierInputs, at, replacement)
        try {
          const result = checkPresentation({
            presentation,
            presentationRequest: req,
            schemas: { [schemaId]: schema },
            credentialDefinitions: {
              [credDefId]: {
                ...credentialDefinition,
                value: { ...credentialDefinition.value, revocation: inputs.revocation },
              },
            },
            revocationRegistryDefinitions: { [revRegDefId]: inputs.registry },
            revocationStatusLists: [inputs.list],
          })
          const unchanged =
            JSON.stringify(presentation) === JSON.stringify(good) &&
            JSON.stringify(inputs) === JSON.stringify(verifierInputs)
          return !result.valid || unchanged || (!inPresentation && at.some((key) => unread.includes(String(key))))
        } catch (error) {
          return error instanceof AnonCredsError
        }
      }),
      { numRuns: 40 },
    )
  })

  it('answers any mutation of a revocable credential, its request metadata or registry when processing with an AnonCredsError', () => {
    const { credential, credentialRequestMetadata } = issue(8)
    const good = {
      credential: {
        rev_reg_id: credential.rev_reg_id,
        rev_reg: credential.rev_reg,
        witness: credential.witness,
        r: credential.signature.r_credential,
      },
      vrPrime: credentialRequestMetadata.link_secret_blinding_data.vr_prime,
      registry: registry.revocationRegistryDefinition,
    }
    const paths = pathsOf(good)
    // Not signed: the registry id (the holder cannot check it) and the index (g_i is what is signed; a wrong i only
    // gives a witness that will not fit later), and the definition fields processing does not read.
    const unsigned = ['rev_reg_id', 'i', 'tailsHash', 'tailsLocation', 'tag', 'issuerId', 'maxCredNum']
    fc.assert(
      fc.property(fc.nat(), replacements(), (pick, replacement) => {
        const at = paths[pick % paths.length]
        const bad = replaced(good, at, replacement)
        try {
          processCredential({
            credential: {
              ...credential,
              rev_reg_id: bad.credential.rev_reg_id,
              rev_reg: bad.credential.rev_reg,
              witness: bad.credential.witness,
              signature: { ...credential.signature, r_credential: bad.credential.r },
            },
            credentialRequestMetadata: {
              ...credentialRequestMetadata,
              link_secret_blinding_data: {
                ...credentialRequestMetadata.link_secret_blinding_data,
                vr_prime: bad.vrPrime,
              },
            },
            linkSecret,
            credentialDefinition,
            revocationRegistryDefinition: bad.registry,
          })
          // Without any revocation part it is a credential that cannot be revoked (nor prove non-revocation).
          const revocationPart = (bad.credential ?? {}) as Json
          const stripped = ['rev_reg_id', 'rev_reg', 'witness', 'r'].every((key) => revocationPart[key] == null)
          return (
            stripped || JSON.stringify(bad) === JSON.stringify(good) || at.some((key) => unsigned.includes(String(key)))
          )
        } catch (error) {
          return error instanceof AnonCredsError
        }
      }),
      { numRuns: 40 },
    )
  })

  it('computes the same tails file in worker threads as in this thread', async () => {
    const key = readRevocationPublicKey(credentialDefinition.value.revocation, 'revocation')
    const gamma = parseScalar(registry.revocationRegistryDefinitionPrivate.value.gamma, 'gamma')
    const inWorkers = await computeTailsFileInWorkers(key.gDash, gamma, 600, 2)
    expect(Buffer.from(inWorkers).equals(Buffer.from(buildTailsFile(key.gDash, gamma, 600)))).toBe(true)
  })
})
