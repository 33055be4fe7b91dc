/**
 * Issuance against anoncreds-rs (its WASM build as an oracle, test/helpers/anoncreds-oracle.ts) in both
 * directions, with the oracle's slow credential definitions loaded from committed fixtures
 * (scripts/anoncreds-fixtures.ts made them).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import { oracle } from '../../../test/helpers/anoncreds-oracle'
import {
  AnonCredsError,
  createCredential,
  createCredentialDefinition,
  createCredentialOffer,
  createCredentialRequest,
  createLinkSecret,
  createSchema,
  processCredential,
  processCredentialOffLoop,
  type CreateCredentialDefinitionResult,
  type Credential,
} from './index'

type Json = Record<string, unknown>

interface OracleFixture {
  schemaId: string
  schema: Json
  credentialDefinitionId: string
  credentialDefinition: Json
  credentialDefinitionPrivate: Json
  keyCorrectnessProof: Json
  linkSecret: string
  linkSecretId: string
  attributeRawValues: Record<string, string>
  credentialOffer: Json
  credentialRequest: Json
  credentialRequestMetadata: Json
  credential: Json
  processedCredential: Json
}

function loadFixture(name: string): OracleFixture {
  const file = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'anoncreds', `${name}.json`)
  return JSON.parse(readFileSync(file, 'utf8')) as OracleFixture
}

/**
 * The JSON's structure: key sets and value types (numbers are decimal strings in both). Null fields are
 * dropped: native anoncreds-rs (serde_json, what Credo stores) writes an absent Option as null, as we do, while
 * the WASM build (serde-wasm-bindgen) leaves the key out; both read either.
 */
function skeleton(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(skeleton)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => (value as Json)[key] !== null)
        .sort()
        .map((key) => [key, skeleton((value as Json)[key])]),
    )
  }
  if (typeof value === 'string') return /^-?[0-9]+$/.test(value) ? 'decimal' : 'string'
  return value === null ? null : typeof value
}

/** The JSON with null-valued keys removed (see skeleton). */
function withoutNulls(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (item === null ? undefined : item)))
}

/** Runs `action`; the AnonCredsError it must throw (any other error fails the test). */
function anonCredsErrorOf(action: () => unknown): AnonCredsError {
  try {
    action()
  } catch (error) {
    if (error instanceof AnonCredsError) return error
    throw error
  }
  throw new Error('expected an AnonCredsError, nothing was thrown')
}

/** The oracle's holder proves one revealed attribute and one predicate from `credential`; its verifier's answer. */
function oraclePresentsAndVerifies(options: {
  credential: object
  linkSecret: string
  schemaId: string
  schema: object
  credentialDefinitionId: string
  credentialDefinition: object
  revealed: string
  predicate: { name: string; p_type: string; p_value: number }
}): boolean {
  const presentationRequest = {
    nonce: oracle.createNonce(),
    name: 'issuance check',
    version: '1.0',
    requested_attributes: { revealed: { name: options.revealed } },
    requested_predicates: { predicate: options.predicate },
  }
  const schemas = { [options.schemaId]: options.schema }
  const credentialDefinitions = { [options.credentialDefinitionId]: options.credentialDefinition }
  const presentation = oracle.createPresentation({
    presentationRequest,
    credential: options.credential,
    linkSecret: options.linkSecret,
    schemas,
    credentialDefinitions,
  })
  return oracle.verifyPresentation({ presentation, presentationRequest, schemas, credentialDefinitions })
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T
const bump = (decimal: unknown) => (BigInt(decimal as string) + 1n).toString()

const ISSUER_ID = 'did:example:our-issuer'
const SCHEMA_ID = `${ISSUER_ID}/anoncreds/v0/SCHEMA/employee/1.0`
const CRED_DEF_ID = `${ISSUER_ID}/anoncreds/v0/CLAIM_DEF/employee/default`
const RAW_VALUES = { name: 'Grace', 'Birth Year': '1906', rank: 'Rear Admiral', age: '-5' }

describe('AnonCreds issuance against anoncreds-rs', () => {
  const small = loadFixture('small')
  const ten = loadFixture('ten')
  let ours: CreateCredentialDefinitionResult
  /** Ours over the attributes of the oracle's `small` schema: another key for the same credential shape. */
  let oursLikeSmall: CreateCredentialDefinitionResult

  let ourSchema: object

  // Safe-prime searches have a long tail on the loaded CI machine (docs/benchmarks.md): a generous bound here,
  // the speed itself is the benchmark's business.
  const KEY_GENERATION_TIMEOUT_MS = 180_000

  beforeAll(async () => {
    ourSchema = createSchema({
      name: 'employee',
      version: '1.0',
      issuerId: ISSUER_ID,
      attributeNames: Object.keys(RAW_VALUES),
    })
    ours = await createCredentialDefinition({
      schemaId: SCHEMA_ID,
      schema: ourSchema,
      issuerId: ISSUER_ID,
      tag: 'default',
    })
    oursLikeSmall = await createCredentialDefinition({
      schemaId: small.schemaId,
      schema: small.schema,
      issuerId: ISSUER_ID,
      tag: 'like-small',
    })
  }, KEY_GENERATION_TIMEOUT_MS)

  it('writes credential definitions, offers, requests and credentials with the oracle JSON structure', () => {
    expect(skeleton(ours.credentialDefinition.value.primary.n)).toBe('decimal')
    // Same top-level and nested field names as the oracle's (map keys such as attribute names aside).
    const shape = (json: unknown) => JSON.stringify(skeleton(json)).replace(/"r":\{[^}]*\}/, '"r":{}')
    expect(shape({ ...ours.credentialDefinition, schemaId: 'x', issuerId: 'x' })).toBe(
      shape({ ...small.credentialDefinition, schemaId: 'x', issuerId: 'x' }),
    )
    expect(skeleton(ours.credentialDefinitionPrivate)).toEqual(skeleton(small.credentialDefinitionPrivate))
    const ourOffer = createCredentialOffer({
      schemaId: small.schemaId,
      credentialDefinitionId: small.credentialDefinitionId,
      keyCorrectnessProof: small.keyCorrectnessProof,
    })
    expect(skeleton(ourOffer)).toEqual(skeleton(small.credentialOffer))
    const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
      entropy: (small.credentialRequest.entropy as string) ?? 'entropy',
      credentialDefinition: small.credentialDefinition,
      linkSecret: small.linkSecret,
      linkSecretId: small.linkSecretId,
      credentialOffer: small.credentialOffer,
    })
    expect(skeleton(credentialRequest)).toEqual(skeleton(small.credentialRequest))
    expect(skeleton(credentialRequestMetadata)).toEqual(skeleton(small.credentialRequestMetadata))
  })

  it('processes the oracle-issued fixture credential exactly as the oracle did', () => {
    for (const fixture of [small, ten]) {
      const processed = processCredential({
        credential: fixture.credential,
        credentialRequestMetadata: fixture.credentialRequestMetadata,
        linkSecret: fixture.linkSecret,
        credentialDefinition: fixture.credentialDefinition,
      })
      expect(withoutNulls(processed)).toEqual(withoutNulls(fixture.processedCredential))
    }
  })

  it('oracle offer -> our request -> oracle credential -> our processing', () => {
    const offer = oracle.createCredentialOffer({
      schemaId: ten.schemaId,
      credentialDefinitionId: ten.credentialDefinitionId,
      keyCorrectnessProof: ten.keyCorrectnessProof,
    })
    const linkSecret = createLinkSecret()
    const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
      entropy: 'holder-entropy',
      credentialDefinition: ten.credentialDefinition,
      linkSecret,
      linkSecretId: 'main',
      credentialOffer: offer,
    })
    const credential = oracle.createCredential({
      credentialDefinition: ten.credentialDefinition,
      credentialDefinitionPrivate: ten.credentialDefinitionPrivate,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: ten.attributeRawValues,
    })
    const processed = processCredential({
      credential,
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition: ten.credentialDefinition,
    })
    expect(processed.values).toEqual(credential.values)
    // The oracle, processing the same credential with our request's metadata, gets exactly our result.
    const oracleProcessed = oracle.processCredential({
      credential,
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition: ten.credentialDefinition,
    })
    expect(withoutNulls(processed)).toEqual(withoutNulls(oracleProcessed))
    // Our processed credential proves in the oracle's presentation (ten's `age` is 36).
    expect(
      oraclePresentsAndVerifies({
        credential: processed,
        linkSecret,
        schemaId: ten.schemaId,
        schema: ten.schema,
        credentialDefinitionId: ten.credentialDefinitionId,
        credentialDefinition: ten.credentialDefinition,
        revealed: 'email',
        predicate: { name: 'age', p_type: '<', p_value: 40 },
      }),
    ).toBe(true)
  })

  it('our issuer with the oracle holder: the oracle accepts our key correctness proof and our credential', () => {
    const offer = createCredentialOffer({
      schemaId: SCHEMA_ID,
      credentialDefinitionId: CRED_DEF_ID,
      keyCorrectnessProof: ours.keyCorrectnessProof,
    })
    const linkSecret = oracle.createLinkSecret()
    const { credentialRequest, credentialRequestMetadata } = oracle.createCredentialRequest({
      credentialDefinition: ours.credentialDefinition as unknown as Json,
      linkSecret,
      linkSecretId: 'main',
      credentialOffer: offer as unknown as Json,
    })
    const credential = createCredential({
      credentialDefinition: ours.credentialDefinition,
      credentialDefinitionPrivate: ours.credentialDefinitionPrivate,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: RAW_VALUES,
    })
    const processed = oracle.processCredential({
      credential: credential as unknown as Json,
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition: ours.credentialDefinition as unknown as Json,
    })
    expect(processed.values).toEqual(credential.values)
    expect(credential.values.age).toEqual({ raw: '-5', encoded: '-5' })
    // The oracle proves from our credential (a revealed attribute, a predicate on another) and verifies it.
    expect(
      oraclePresentsAndVerifies({
        credential: processed,
        linkSecret,
        schemaId: SCHEMA_ID,
        schema: ourSchema,
        credentialDefinitionId: CRED_DEF_ID,
        credentialDefinition: ours.credentialDefinition,
        revealed: 'rank',
        predicate: { name: 'Birth Year', p_type: '>=', p_value: 1900 },
      }),
    ).toBe(true)
  })

  it('legacy identifiers: a request with a prover DID instead of entropy, signed by both issuers', () => {
    const legacyCredDefId = 'DXoTtQJNtXtiwWaZAK3rB1:3:CL:98153:default'
    const legacySchemaId = 'DXoTtQJNtXtiwWaZAK3rB1:2:employee:1.0'
    const offer = createCredentialOffer({
      schemaId: legacySchemaId,
      credentialDefinitionId: legacyCredDefId,
      keyCorrectnessProof: ours.keyCorrectnessProof,
    })
    const linkSecret = createLinkSecret()
    const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
      proverDid: 'CnEDk9HrMnmiHXEV1WFgbV',
      credentialDefinition: ours.credentialDefinition,
      linkSecret,
      linkSecretId: 'main',
      credentialOffer: offer,
    })
    expect(credentialRequest.prover_did).toBe('CnEDk9HrMnmiHXEV1WFgbV')
    expect(credentialRequest.entropy).toBeUndefined()
    const keys = {
      credentialDefinition: ours.credentialDefinition,
      credentialDefinitionPrivate: ours.credentialDefinitionPrivate,
    }
    const fromUs = createCredential({
      ...keys,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: RAW_VALUES,
    })
    const fromOracle = oracle.createCredential({
      ...keys,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: RAW_VALUES,
    }) as unknown as Credential
    // Both bind the credential to the prover DID the same way (m2), and our holder accepts both.
    expect(fromOracle.signature.p_credential.m_2).toBe(fromUs.signature.p_credential.m_2)
    for (const credential of [fromUs, fromOracle]) {
      expect(
        processCredential({
          credential,
          credentialRequestMetadata,
          linkSecret,
          credentialDefinition: ours.credentialDefinition,
        }).cred_def_id,
      ).toBe(legacyCredDefId)
    }
    // A prover DID on a non-legacy credential definition is refused, as anoncreds-rs does.
    const modern = createCredentialOffer({
      schemaId: SCHEMA_ID,
      credentialDefinitionId: CRED_DEF_ID,
      keyCorrectnessProof: ours.keyCorrectnessProof,
    })
    expect(
      anonCredsErrorOf(() =>
        createCredentialRequest({
          proverDid: 'CnEDk9HrMnmiHXEV1WFgbV',
          credentialDefinition: ours.credentialDefinition,
          linkSecret,
          linkSecretId: 'main',
          credentialOffer: modern,
        }),
      ).message,
    ).toMatch(/entropy is required/)
  })

  it('our issuer and our holder end to end', () => {
    const offer = createCredentialOffer({
      schemaId: SCHEMA_ID,
      credentialDefinitionId: CRED_DEF_ID,
      keyCorrectnessProof: ours.keyCorrectnessProof,
    })
    const linkSecret = createLinkSecret()
    const { credentialRequest, credentialRequestMetadata } = createCredentialRequest({
      entropy: 'e',
      credentialDefinition: ours.credentialDefinition,
      linkSecret,
      linkSecretId: 'main',
      credentialOffer: offer,
    })
    const credential = createCredential({
      credentialDefinition: ours.credentialDefinition,
      credentialDefinitionPrivate: ours.credentialDefinitionPrivate,
      credentialOffer: offer,
      credentialRequest,
      attributeRawValues: RAW_VALUES,
    })
    const processed = processCredential({
      credential,
      credentialRequestMetadata,
      linkSecret,
      credentialDefinition: ours.credentialDefinition,
    })
    expect(processed.cred_def_id).toBe(CRED_DEF_ID)
  })

  describe('refuses', () => {
    it('a tampered key correctness proof (ours refuses the oracle offer, the oracle refuses ours)', () => {
      const offer = clone(small.credentialOffer) as { key_correctness_proof: { xz_cap: string } }
      offer.key_correctness_proof.xz_cap = bump(offer.key_correctness_proof.xz_cap)
      const error = anonCredsErrorOf(() =>
        createCredentialRequest({
          entropy: 'e',
          credentialDefinition: small.credentialDefinition,
          linkSecret: small.linkSecret,
          linkSecretId: 'x',
          credentialOffer: offer,
        }),
      )
      expect(error.kind).toBe('invalid')
      expect(error.message).toMatch(/key correctness proof/)

      const ourOffer = createCredentialOffer({
        schemaId: SCHEMA_ID,
        credentialDefinitionId: CRED_DEF_ID,
        keyCorrectnessProof: ours.keyCorrectnessProof,
      })
      ourOffer.key_correctness_proof.c = bump(ourOffer.key_correctness_proof.c)
      expect(() =>
        oracle.createCredentialRequest({
          credentialDefinition: ours.credentialDefinition as unknown as Json,
          linkSecret: small.linkSecret,
          linkSecretId: 'x',
          credentialOffer: ourOffer as unknown as Json,
        }),
      ).toThrow()
    })

    it('a tampered key correctness proof or key after the genuine pair verified (the pair is remembered, nothing less)', () => {
      const request = (credentialDefinition: unknown, credentialOffer: unknown) => () =>
        createCredentialRequest({
          entropy: 'e',
          credentialDefinition: credentialDefinition as Json,
          linkSecret: small.linkSecret,
          linkSecretId: 'x',
          credentialOffer: credentialOffer as Json,
        })
      request(small.credentialDefinition, small.credentialOffer)()
      type Offer = { key_correctness_proof: { c: string; xz_cap: string; xr_cap: [string, string][] } }
      type Definition = { value: { primary: { n: string; s: string; z: string; r: Record<string, string> } } }
      const offerTamperings: Array<(offer: Offer) => void> = [
        (o) => (o.key_correctness_proof.c = bump(o.key_correctness_proof.c)),
        (o) => (o.key_correctness_proof.xz_cap = bump(o.key_correctness_proof.xz_cap)),
        (o) => (o.key_correctness_proof.xr_cap[0][1] = bump(o.key_correctness_proof.xr_cap[0][1])),
        // the same values under swapped names
        (o) => {
          const [first, second] = o.key_correctness_proof.xr_cap
          ;[first[0], second[0]] = [second[0], first[0]]
        },
      ]
      for (const tamper of offerTamperings) {
        const offer = clone(small.credentialOffer) as Offer
        tamper(offer)
        for (let attempt = 0; attempt < 2; attempt++) {
          expect(anonCredsErrorOf(request(small.credentialDefinition, offer)).message).toMatch(/key correctness proof/)
        }
      }
      const definitionTamperings: Array<(definition: Definition) => void> = [
        (d) => (d.value.primary.z = bump(d.value.primary.z)),
        (d) => (d.value.primary.s = bump(d.value.primary.s)),
        (d) => (d.value.primary.r.age = bump(d.value.primary.r.age)),
      ]
      for (const tamper of definitionTamperings) {
        const definition = clone(small.credentialDefinition) as Definition
        tamper(definition)
        expect(anonCredsErrorOf(request(definition, small.credentialOffer)).kind).toBe('invalid')
      }
      request(small.credentialDefinition, small.credentialOffer)()
    })

    it('a key correctness proof of another credential definition', () => {
      const error = anonCredsErrorOf(() =>
        createCredentialRequest({
          entropy: 'e',
          credentialDefinition: oursLikeSmall.credentialDefinition,
          linkSecret: small.linkSecret,
          linkSecretId: 'x',
          credentialOffer: small.credentialOffer,
        }),
      )
      expect(error.kind).toBe('invalid')
    })

    it('a tampered signature, signature correctness proof or value', () => {
      const base = {
        credentialRequestMetadata: small.credentialRequestMetadata,
        linkSecret: small.linkSecret,
        credentialDefinition: small.credentialDefinition,
      }
      const tamperings: Array<(credential: Credential) => void> = [
        (c) => (c.signature.p_credential.a = bump(c.signature.p_credential.a)),
        (c) => (c.signature.p_credential.e = bump(bump(c.signature.p_credential.e))),
        (c) => (c.signature.p_credential.v = bump(c.signature.p_credential.v)),
        (c) => (c.signature.p_credential.m_2 = bump(c.signature.p_credential.m_2)),
        (c) => (c.signature_correctness_proof.se = bump(c.signature_correctness_proof.se)),
        (c) => (c.signature_correctness_proof.c = bump(c.signature_correctness_proof.c)),
        (c) => (c.values.age = { raw: '29', encoded: '29' }),
      ]
      for (const tamper of tamperings) {
        const credential = clone(small.credential) as unknown as Credential
        tamper(credential)
        expect(anonCredsErrorOf(() => processCredential({ ...base, credential })).kind).toBe('invalid')
      }
    })

    it('off the loop: the same credential, and the same refusals (a composite e, a tampered value, malformed input)', async () => {
      const base = {
        credentialRequestMetadata: small.credentialRequestMetadata,
        linkSecret: small.linkSecret,
        credentialDefinition: small.credentialDefinition,
      }
      const processed = await processCredentialOffLoop({ ...base, credential: small.credential })
      expect(withoutNulls(processed)).toEqual(withoutNulls(small.processedCredential))
      const refusalOf = async (credential: unknown) => {
        const error = await processCredentialOffLoop({ ...base, credential: credential as Credential }).then(
          () => undefined,
          (caught: unknown) => caught,
        )
        expect(error).toBeInstanceOf(AnonCredsError)
        return error as AnonCredsError
      }
      const compositeE = clone(small.credential) as unknown as Credential
      compositeE.signature.p_credential.e = bump(compositeE.signature.p_credential.e)
      expect((await refusalOf(compositeE)).kind).toBe('invalid')
      const otherAge = clone(small.credential) as unknown as Credential
      otherAge.values.age = { raw: '29', encoded: '29' }
      expect((await refusalOf(otherAge)).kind).toBe('invalid')
      const noE = clone(small.credential) as unknown as Credential
      ;(noE.signature.p_credential as unknown as Record<string, unknown>).e = 'not a number'
      expect((await refusalOf(noE)).kind).toBe('malformed')
      expect((await refusalOf('not a credential')).kind).toBe('malformed')
    })

    it('a wrong link secret or another request metadata', () => {
      const base = { credential: small.credential, credentialDefinition: small.credentialDefinition }
      expect(
        anonCredsErrorOf(() =>
          processCredential({
            ...base,
            credentialRequestMetadata: small.credentialRequestMetadata,
            linkSecret: createLinkSecret(),
          }),
        ).kind,
      ).toBe('invalid')
      const { credentialRequestMetadata: otherMetadata } = createCredentialRequest({
        entropy: 'e',
        credentialDefinition: small.credentialDefinition,
        linkSecret: small.linkSecret,
        linkSecretId: 'x',
        credentialOffer: small.credentialOffer,
      })
      expect(
        anonCredsErrorOf(() =>
          processCredential({
            ...base,
            credentialRequestMetadata: otherMetadata,
            linkSecret: small.linkSecret,
          }),
        ).kind,
      ).toBe('invalid')
    })

    it('a credential of another credential definition', () => {
      const error = anonCredsErrorOf(() =>
        processCredential({
          credential: small.credential,
          credentialRequestMetadata: small.credentialRequestMetadata,
          linkSecret: small.linkSecret,
          credentialDefinition: oursLikeSmall.credentialDefinition,
        }),
      )
      expect(error.kind).toBe('invalid')
      expect(error.message).toMatch(/signature/)
    })

    it('a request made for another offer (nonce mismatch) or with a tampered blinding proof', () => {
      const offer = createCredentialOffer({
        schemaId: SCHEMA_ID,
        credentialDefinitionId: CRED_DEF_ID,
        keyCorrectnessProof: ours.keyCorrectnessProof,
      })
      const otherOffer = createCredentialOffer({
        schemaId: SCHEMA_ID,
        credentialDefinitionId: CRED_DEF_ID,
        keyCorrectnessProof: ours.keyCorrectnessProof,
      })
      const { credentialRequest } = createCredentialRequest({
        entropy: 'e',
        credentialDefinition: ours.credentialDefinition,
        linkSecret: createLinkSecret(),
        linkSecretId: 'x',
        credentialOffer: offer,
      })
      const sign = (credentialOffer: unknown, request: unknown) =>
        createCredential({
          credentialDefinition: ours.credentialDefinition,
          credentialDefinitionPrivate: ours.credentialDefinitionPrivate,
          credentialOffer,
          credentialRequest: request,
          attributeRawValues: RAW_VALUES,
        })
      expect(anonCredsErrorOf(() => sign(otherOffer, credentialRequest)).message).toMatch(/blinded link secret/)
      const tampered = clone(credentialRequest)
      tampered.blinded_ms.u = bump(tampered.blinded_ms.u)
      expect(anonCredsErrorOf(() => sign(offer, tampered)).kind).toBe('invalid')
      const tamperedProof = clone(credentialRequest)
      tamperedProof.blinded_ms_correctness_proof.m_caps.master_secret = bump(
        tamperedProof.blinded_ms_correctness_proof.m_caps.master_secret,
      )
      expect(anonCredsErrorOf(() => sign(offer, tamperedProof)).kind).toBe('invalid')
      // The oracle's own check agrees: it refuses our request against the other offer.
      expect(() =>
        oracle.createCredential({
          credentialDefinition: ours.credentialDefinition as unknown as Json,
          credentialDefinitionPrivate: ours.credentialDefinitionPrivate as unknown as Json,
          credentialOffer: otherOffer as unknown as Json,
          credentialRequest: credentialRequest as unknown as Json,
          attributeRawValues: RAW_VALUES,
        }),
      ).toThrow()
    })

    it('missing, extra and reserved attributes, and a private key of another definition', () => {
      const offer = createCredentialOffer({
        schemaId: SCHEMA_ID,
        credentialDefinitionId: CRED_DEF_ID,
        keyCorrectnessProof: ours.keyCorrectnessProof,
      })
      const { credentialRequest } = createCredentialRequest({
        entropy: 'e',
        credentialDefinition: ours.credentialDefinition,
        linkSecret: createLinkSecret(),
        linkSecretId: 'x',
        credentialOffer: offer,
      })
      const sign = (
        attributeRawValues: Record<string, string>,
        credentialDefinitionPrivate: unknown = ours.credentialDefinitionPrivate,
      ) =>
        createCredential({
          credentialDefinition: ours.credentialDefinition,
          credentialDefinitionPrivate,
          credentialOffer: offer,
          credentialRequest,
          attributeRawValues,
        })
      const { rank: _rank, ...missing } = RAW_VALUES
      expect(anonCredsErrorOf(() => sign(missing)).message).toMatch(/no value for attribute 'rank'/)
      expect(anonCredsErrorOf(() => sign({ ...RAW_VALUES, extra: '1' })).message).toMatch(/'extra' is not in/)
      expect(anonCredsErrorOf(() => sign({ ...RAW_VALUES, master_secret: '1' })).message).toMatch(/reserved/)
      expect(anonCredsErrorOf(() => sign(RAW_VALUES, small.credentialDefinitionPrivate)).message).toMatch(
        /does not belong/,
      )
    })

    it('malformed objects with an AnonCredsError naming the field, never another exception', () => {
      const cases: Array<[() => unknown, RegExp]> = [
        [
          () =>
            processCredential({
              credential: null,
              credentialRequestMetadata: small.credentialRequestMetadata,
              linkSecret: small.linkSecret,
              credentialDefinition: small.credentialDefinition,
            }),
          /^credential: expected an object/,
        ],
        [
          () =>
            processCredential({
              credential: { ...small.credential, values: {} },
              credentialRequestMetadata: small.credentialRequestMetadata,
              linkSecret: small.linkSecret,
              credentialDefinition: small.credentialDefinition,
            }),
          /credential.values: must not be empty/,
        ],
        [
          () =>
            processCredential({
              credential: small.credential,
              credentialRequestMetadata: small.credentialRequestMetadata,
              linkSecret: 'abc',
              credentialDefinition: small.credentialDefinition,
            }),
          /^linkSecret/,
        ],
        [
          () =>
            createCredentialRequest({
              entropy: 'e',
              credentialDefinition: { ...small.credentialDefinition, type: 'XX' },
              linkSecret: small.linkSecret,
              linkSecretId: 'x',
              credentialOffer: small.credentialOffer,
            }),
          /credentialDefinition.type/,
        ],
        [
          () =>
            createCredentialRequest({
              credentialDefinition: small.credentialDefinition,
              linkSecret: small.linkSecret,
              linkSecretId: 'x',
              credentialOffer: small.credentialOffer,
            }),
          /entropy is required/,
        ],
        [
          () =>
            createCredentialRequest({
              entropy: 'e',
              credentialDefinition: small.credentialDefinition,
              linkSecret: small.linkSecret,
              linkSecretId: 'x',
              credentialOffer: { ...small.credentialOffer, nonce: '12x' },
            }),
          /credentialOffer.nonce/,
        ],
        [
          () =>
            createCredentialOffer({
              schemaId: 'not an id',
              credentialDefinitionId: CRED_DEF_ID,
              keyCorrectnessProof: ours.keyCorrectnessProof,
            }),
          /schemaId/,
        ],
        [() => createSchema({ name: 'n', version: '1', issuerId: ISSUER_ID, attributeNames: ['a', 'a'] }), /unique/],
        [() => createSchema({ name: 'n', version: '1', issuerId: ISSUER_ID, attributeNames: [] }), /must not be empty/],
      ]
      for (const [action, message] of cases) expect(anonCredsErrorOf(action).message).toMatch(message)
    })
  })
})
