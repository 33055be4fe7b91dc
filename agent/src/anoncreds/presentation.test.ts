import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import fc from 'fast-check'

import { AnonCredsError } from './errors'
import { createPresentation, type CreatePresentationOptions } from './presentation'
import { checkPresentation, verifyPresentation } from './verify'
import { oracle } from '../../../test/helpers/anoncreds-oracle'
import { loadPresentationOracle, type OracleWorld } from '../../../test/helpers/anoncreds-presentation-oracle'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const clone = <T>(value: T): T => structuredClone(value)

describe('AnonCreds presentations against anoncreds-rs (WASM oracle)', () => {
  let world: OracleWorld

  beforeAll(() => {
    world = loadPresentationOracle()
  })

  function request(nonce = world.oracle.nonce()): Json {
    return {
      nonce,
      name: 'proof',
      version: '1.0',
      requested_attributes: {
        name: { name: 'name', restrictions: [{ cred_def_id: world.person.credDefId }] },
        contact: {
          names: ['city', 'email'],
          restrictions: { $or: [{ schema_name: 'person' }, { schema_name: 'other' }] },
        },
        degree_hidden: { name: 'degree', restrictions: { schema_issuer_id: world.person.issuerId } },
        licence_number: { name: 'number', restrictions: [{ issuer_did: world.license.issuerId }] },
        nickname: { name: 'nickname' },
      },
      requested_predicates: {
        adult: { name: 'age', p_type: '>=', p_value: 18, restrictions: [{ schema_id: world.person.schemaId }] },
        young: { name: 'age', p_type: '<', p_value: 65 },
        tall: { name: 'height', p_type: '>', p_value: 150 },
        points: {
          name: 'points',
          p_type: '<=',
          p_value: 12,
          restrictions: { $and: [{ cred_def_id: world.license.credDefId }] },
        },
      },
    }
  }

  function ours(presentationRequest: Json, overrides: Partial<CreatePresentationOptions> = {}): Json {
    return createPresentation({
      presentationRequest,
      credentials: [{ credential: world.person.credential }, { credential: world.license.credential }],
      credentialsProve: [
        { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
        { entryIndex: 0, referent: 'contact', isPredicate: false, reveal: true },
        { entryIndex: 0, referent: 'degree_hidden', isPredicate: false, reveal: false },
        { entryIndex: 0, referent: 'adult', isPredicate: true, reveal: true },
        { entryIndex: 0, referent: 'young', isPredicate: true, reveal: true },
        { entryIndex: 0, referent: 'tall', isPredicate: true, reveal: true },
        { entryIndex: 1, referent: 'licence_number', isPredicate: false, reveal: true },
        { entryIndex: 1, referent: 'points', isPredicate: true, reveal: true },
      ],
      selfAttest: { nickname: 'Ally' },
      linkSecret: world.linkSecret,
      schemas: world.schemas,
      credentialDefinitions: world.credentialDefinitions,
      ...overrides,
    }) as unknown as Json
  }

  function verify(presentation: Json, presentationRequest: Json): boolean {
    return verifyPresentation({
      presentation,
      presentationRequest,
      schemas: world.schemas,
      credentialDefinitions: world.credentialDefinitions,
    })
  }

  it('verifies a presentation made by anoncreds-rs (revealed, group, predicates of two types)', () => {
    const req: Json = {
      nonce: world.oracle.nonce(),
      name: 'oracle',
      version: '1.0',
      requested_attributes: { name: { name: 'name' }, place: { names: ['city', 'email'] } },
      requested_predicates: {
        adult: { name: 'age', p_type: '>=', p_value: 18 },
        short: { name: 'height', p_type: '<=', p_value: 200 },
      },
    }
    const presentation = world.oracle.createPresentation(req, world.person.credential, world.linkSecret)
    expect(world.oracle.verifyPresentation(presentation, req)).toBe(true)
    expect(
      checkPresentation({
        presentation,
        presentationRequest: req,
        schemas: world.schemas,
        credentialDefinitions: world.credentialDefinitions,
      }),
    ).toEqual({
      valid: true,
    })
    expect(verify(presentation, { ...req, nonce: world.oracle.nonce() })).toBe(false)
  })

  it('makes a presentation over two credential definitions that anoncreds-rs and we verify', () => {
    const req = request()
    const presentation = ours(req)
    expect(world.oracle.verifyPresentation(presentation, req)).toBe(true)
    expect(verify(presentation, req)).toBe(true)
    expect(presentation.requested_proof.revealed_attrs.name).toEqual({
      sub_proof_index: 0,
      raw: 'Alice Smith',
      encoded: world.person.values.name.encoded,
    })
    expect(Object.keys(presentation.requested_proof.revealed_attr_groups.contact.values).sort()).toEqual([
      'city',
      'email',
    ])
    expect(presentation.requested_proof.unrevealed_attrs).toEqual({ degree_hidden: { sub_proof_index: 0 } })
    expect(presentation.requested_proof.self_attested_attrs).toEqual({ nickname: 'Ally' })
    expect(presentation.requested_proof.predicates).toEqual({
      adult: { sub_proof_index: 0 },
      young: { sub_proof_index: 0 },
      tall: { sub_proof_index: 0 },
      points: { sub_proof_index: 1 },
    })
    expect(presentation.identifiers).toEqual([
      { schema_id: world.person.schemaId, cred_def_id: world.person.credDefId, rev_reg_id: null, timestamp: null },
      { schema_id: world.license.schemaId, cred_def_id: world.license.credDefId, rev_reg_id: null, timestamp: null },
    ])
  })

  // anoncreds-rs (serde_json) writes absent revocation fields as null; its WASM build (serde-wasm-bindgen) leaves
  // them out. We write null, as the native library Credo's other agents run does, and read both.
  it('has the JSON shape of anoncreds-rs', () => {
    const req: Json = {
      nonce: world.oracle.nonce(),
      name: 'shape',
      version: '1.0',
      requested_attributes: { name: { name: 'name' } },
      requested_predicates: { adult: { name: 'age', p_type: '>=', p_value: 18 } },
    }
    const theirs = world.oracle.createPresentation(req, world.person.credential, world.linkSecret)
    const mine = createPresentation({
      presentationRequest: req,
      credentials: [{ credential: world.person.credential }],
      credentialsProve: [
        { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
        { entryIndex: 0, referent: 'adult', isPredicate: true, reveal: true },
      ],
      linkSecret: world.linkSecret,
      schemas: world.schemas,
      credentialDefinitions: world.credentialDefinitions,
    })
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.length > 0 && typeof value[0] === 'number'
          ? 'bytes'
          : value.map(shape)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([, v]) => v !== null)
                .map(([k, v]): [string, unknown] => [k, shape(v)])
                .sort(([a], [b]) => (a < b ? -1 : 1)),
            )
          : typeof value
    expect(shape(mine)).toEqual(shape(theirs))
  })

  it('proves each of the four predicate types at its boundary and refuses one the value misses', () => {
    // age is 30, height 172, points 3.
    const cases: [string, string, number, boolean][] = [
      ['age', '>=', 30, true],
      ['age', '>=', 31, false],
      ['age', '>', 29, true],
      ['age', '>', 30, false],
      ['height', '<=', 172, true],
      ['height', '<=', 171, false],
      ['height', '<', 173, true],
      ['height', '<', 172, false],
    ]
    for (const [name, pType, pValue, holds] of cases) {
      const req = {
        nonce: world.oracle.nonce(),
        name: 'p',
        version: '1.0',
        requested_predicates: { p: { name, p_type: pType, p_value: pValue } },
      }
      const make = () =>
        createPresentation({
          presentationRequest: req,
          credentials: [{ credential: world.person.credential }],
          credentialsProve: [{ entryIndex: 0, referent: 'p', isPredicate: true, reveal: true }],
          linkSecret: world.linkSecret,
          schemas: world.schemas,
          credentialDefinitions: world.credentialDefinitions,
        }) as unknown as Json
      if (holds) {
        const presentation = make()
        expect([pType, verify(presentation, req), world.oracle.verifyPresentation(presentation, req)]).toEqual([
          pType,
          true,
          true,
        ])
      } else {
        expect(make).toThrow(
          expect.objectContaining({ kind: 'invalid', message: expect.stringContaining('not satisfied') }),
        )
      }
    }
  })

  it('matches attribute names without case and spaces, proves two credentials of one definition, carries a timestamp', () => {
    const req: Json = {
      nonce: world.oracle.nonce(),
      name: 'names',
      version: '1.0',
      requested_attributes: { first: { name: 'E Mail' }, second: { names: ['CITY', 'Na me'] } },
      requested_predicates: { adult: { name: ' AGE', p_type: '>=', p_value: 21 } },
    }
    const presentation = createPresentation({
      presentationRequest: req,
      credentials: [
        { credential: world.person.credential, timestamp: 1700000000 },
        { credential: world.person.credential },
      ],
      credentialsProve: [
        { entryIndex: 0, referent: 'first', isPredicate: false, reveal: true },
        { entryIndex: 1, referent: 'second', isPredicate: false, reveal: true },
        { entryIndex: 1, referent: 'adult', isPredicate: true, reveal: true },
      ],
      linkSecret: world.linkSecret,
      schemas: world.schemas,
      credentialDefinitions: world.credentialDefinitions,
    }) as unknown as Json
    expect(presentation.identifiers.map((id: Json) => id.timestamp)).toEqual([1700000000, null])
    expect(presentation.requested_proof.revealed_attr_groups.second.values['Na me'].raw).toBe('Alice Smith')
    expect(presentation.proof.proofs[1].primary_proof.eq_proof.revealed_attrs).toHaveProperty('name')
    expect(verify(presentation, req)).toBe(true)
    expect(world.oracle.verifyPresentation(presentation, req)).toBe(true)
  })

  it('proves a credential whose key, issuance and processing all come from anoncreds-rs', () => {
    const small = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'anoncreds', 'small.json'), 'utf8'),
    )
    const schemas = { [small.schemaId]: small.schema }
    const credentialDefinitions = { [small.credentialDefinitionId]: small.credentialDefinition }
    const req: Json = {
      nonce: world.oracle.nonce(),
      name: 'small',
      version: '1.0',
      requested_attributes: { name: { name: 'name', restrictions: { cred_def_id: small.credentialDefinitionId } } },
      requested_predicates: {
        adult: { name: 'age', p_type: '>=', p_value: 18 },
        under: { name: 'age', p_type: '<', p_value: 29 },
      },
    }
    const mine = createPresentation({
      presentationRequest: req,
      credentials: [{ credential: small.processedCredential }],
      credentialsProve: [
        { entryIndex: 0, referent: 'name', isPredicate: false, reveal: true },
        { entryIndex: 0, referent: 'adult', isPredicate: true, reveal: true },
        { entryIndex: 0, referent: 'under', isPredicate: true, reveal: true },
      ],
      linkSecret: small.linkSecret,
      schemas,
      credentialDefinitions,
    })
    const options = { presentationRequest: req, schemas, credentialDefinitions }
    expect(verifyPresentation({ presentation: mine, ...options })).toBe(true)
    expect(oracle.verifyPresentation({ presentation: mine as unknown as Json, ...options })).toBe(true)
    const theirs = oracle.createPresentation({
      credential: small.processedCredential,
      linkSecret: small.linkSecret,
      ...options,
    })
    expect(verifyPresentation({ presentation: theirs, ...options })).toBe(true)
  })

  describe('rejects', () => {
    let req: Json
    let good: Json
    beforeAll(() => {
      req = request()
      good = ours(req)
    })

    it('a tampered revealed value (raw, or raw and encoded together)', () => {
      const rawOnly = clone(good)
      rawOnly.requested_proof.revealed_attrs.name.raw = 'Mallory'
      expect(verify(rawOnly, req)).toBe(false)
      const both = clone(good)
      both.requested_proof.revealed_attrs.name = {
        ...both.requested_proof.revealed_attrs.name,
        raw: 'Mallory',
        encoded: world.encode('Mallory'),
      }
      expect(verify(both, req)).toBe(false)
      expect(world.oracle.verifyPresentationOrFalse(both, req)).toBe(false)
      const group = clone(good)
      group.requested_proof.revealed_attr_groups.contact.values.city = { raw: 'Paris', encoded: world.encode('Paris') }
      expect(verify(group, req)).toBe(false)
    })

    it('a presentation for another nonce', () => {
      const other = { ...req, nonce: world.oracle.nonce() }
      expect(verify(good, other)).toBe(false)
      expect(world.oracle.verifyPresentationOrFalse(good, other)).toBe(false)
    })

    it('a tampered c_hash, A prime or predicate response', () => {
      const cHash = clone(good)
      cHash.proof.aggregated_proof.c_hash = (BigInt(cHash.proof.aggregated_proof.c_hash) + 1n).toString()
      expect(verify(cHash, req)).toBe(false)
      const aPrime = clone(good)
      const eq = aPrime.proof.proofs[0].primary_proof.eq_proof
      eq.a_prime = (BigInt(eq.a_prime) + 2n).toString()
      expect(verify(aPrime, req)).toBe(false)
      const ge = clone(good)
      const first = ge.proof.proofs[0].primary_proof.ge_proofs[0]
      first.alpha = (BigInt(first.alpha) + 1n).toString()
      expect(verify(ge, req)).toBe(false)
    })

    it('a predicate proven with a weaker bound than requested', () => {
      const weaker = {
        ...req,
        requested_predicates: {
          ...req.requested_predicates,
          adult: { ...req.requested_predicates.adult, p_value: 31 },
        },
      }
      expect(verify(good, weaker)).toBe(false)
      expect(world.oracle.verifyPresentation(good, weaker)).toBe(false)
    })

    it('restrictions the credentials do not meet', () => {
      const wrongCredDef = clone(req)
      wrongCredDef.requested_attributes.name.restrictions = [{ cred_def_id: world.license.credDefId }]
      expect(verify(good, wrongCredDef)).toBe(false)
      expect(world.oracle.verifyPresentationOrFalse(good, wrongCredDef)).toBe(false)
      const wrongValue = clone(req)
      wrongValue.requested_attributes.name.restrictions = { 'attr::name::value': 'Bob' }
      expect(verify(good, wrongValue)).toBe(false)
      const rightValue = clone(req)
      rightValue.requested_attributes.name.restrictions = { 'attr::name::value': 'Alice Smith', schema_version: '1.0' }
      expect(verify(good, rightValue)).toBe(true)
      const notOr = clone(req)
      notOr.requested_predicates.adult.restrictions = { $not: { $or: [{ schema_name: 'person' }] } }
      expect(verify(good, notOr)).toBe(false)
      const didOnNonLegacy = clone(req)
      didOnNonLegacy.requested_attributes.degree_hidden.restrictions = { schema_issuer_did: world.person.issuerId }
      expect(verify(good, didOnNonLegacy)).toBe(false)
      const selfAttestedRestricted = clone(req)
      selfAttestedRestricted.requested_attributes.nickname.restrictions = { schema_name: 'person' }
      expect(verify(good, selfAttestedRestricted)).toBe(false)
    })

    it('a sub proof presented under another credential definition', () => {
      const swapped = clone(good)
      swapped.identifiers[0].cred_def_id = world.license.credDefId
      swapped.identifiers[0].schema_id = world.license.schemaId
      expect(verify(swapped, req)).toBe(false)
      // Same schema, another key: only the CL proof can tell.
      const unrestricted: Json = clone(req)
      unrestricted.requested_attributes.name = { name: 'name' }
      const made = ours(unrestricted)
      made.identifiers[0].cred_def_id = world.personOtherKeyId
      const check = checkPresentation({
        presentation: made,
        presentationRequest: unrestricted,
        schemas: world.schemas,
        credentialDefinitions: world.credentialDefinitions,
      })
      // A' from the other modulus may even be out of this one's range; either way the proof fails.
      expect(check).toEqual({ valid: false, reason: expect.stringMatching(/challenge|out of range/), proofFails: true })
      expect(world.oracle.verifyPresentationOrFalse(made, unrestricted)).toBe(false)
    })

    it('a credential claimed under another schema with the same attribute names', () => {
      const copyId = `${world.person.issuerId}/schemas/person-copy`
      const schemas = { ...world.schemas, [copyId]: { ...world.person.schema, name: 'person-copy' } }
      const claimed = clone(good)
      claimed.identifiers[0].schema_id = copyId
      const copyRequest = clone(req)
      copyRequest.requested_attributes.degree_hidden.restrictions = { schema_name: 'person-copy' }
      const check = checkPresentation({
        presentation: claimed,
        presentationRequest: copyRequest,
        schemas,
        credentialDefinitions: world.credentialDefinitions,
      })
      expect(check).toEqual({ valid: false, reason: expect.stringContaining('is not for schema') })
    })

    it('a presentation made with another link secret', () => {
      const wrong = ours(req, { linkSecret: world.otherLinkSecret })
      expect(verify(wrong, req)).toBe(false)
    })

    it('a referent missing, answered twice or not requested', () => {
      const missing = clone(good)
      delete missing.requested_proof.unrevealed_attrs.degree_hidden
      expect(verify(missing, req)).toBe(false)
      const twice = clone(good)
      twice.requested_proof.self_attested_attrs.name = 'x'
      expect(verify(twice, req)).toBe(false)
      const extra = clone(good)
      extra.requested_proof.predicates.more = { sub_proof_index: 0 }
      expect(verify(extra, req)).toBe(false)
      const badIndex = clone(good)
      badIndex.requested_proof.predicates.points = { sub_proof_index: 7 }
      expect(verify(badIndex, req)).toBe(false)
    })
  })

  describe('input validation', () => {
    it('answers malformed objects with a typed error, never another exception', () => {
      const req = request()
      const good = ours(req)
      const mutations: ((p: Json) => void)[] = [
        (p) => (p.proof = 'x'),
        (p) => (p.proof.proofs[0].primary_proof.eq_proof.e = 'not a number'),
        (p) => (p.proof.proofs[0].primary_proof.ge_proofs[0].t = { 0: '1' }),
        (p) => (p.proof.aggregated_proof.c_list = [[300]]),
        (p) => (p.requested_proof.revealed_attrs.name.sub_proof_index = -1),
        (p) => (p.identifiers = {}),
        (p) => (p.proof.proofs[0].non_revoc_proof = {}),
        (p) => (p.proof.proofs[0].non_revoc_proof = { x_list: {}, c_list: {} }),
        (p) => (p.identifiers[0].rev_reg_id = 7),
      ]
      for (const mutate of mutations) {
        const bad = clone(good)
        mutate(bad)
        expect(() => verify(bad, req)).toThrow(AnonCredsError)
      }
      // Well-formed revocation data that does not fit the verifier's objects is a failed check, not an error.
      const named = clone(good)
      named.identifiers[0].rev_reg_id = 'rev'
      expect(
        checkPresentation({
          presentation: named,
          presentationRequest: req,
          schemas: world.schemas,
          credentialDefinitions: world.credentialDefinitions,
        }),
      ).toEqual({
        valid: false,
        reason: `credential definition ${good.identifiers[0].cred_def_id} does not support revocation`,
      })
      expect(() => verify(good, { ...req, nonce: 'abc' })).toThrow(AnonCredsError)
      expect(() =>
        verify(good, { ...req, requested_predicates: { x: { name: 'age', p_type: '=', p_value: 1 } } }),
      ).toThrow(AnonCredsError)
      expect(() => verify(good, { ...req, requested_attributes: { x: { name: 'a', names: ['b'] } } })).toThrow(
        AnonCredsError,
      )
      expect(() =>
        verify(good, { ...req, requested_attributes: { x: { name: 'a', restrictions: { schema_id: { $gt: 1 } } } } }),
      ).toThrow(AnonCredsError)
      expect(() => verifyPresentation(null as never)).toThrow(AnonCredsError)
      const protoReferent = JSON.parse('{"__proto__": {"name": "name"}}')
      expect(() => verify(good, { ...req, requested_attributes: protoReferent })).toThrow(AnonCredsError)
      const renamed = clone(good)
      renamed.identifiers[0].schema_id = 'constructor'
      expect(
        checkPresentation({
          presentation: renamed,
          presentationRequest: req,
          schemas: world.schemas,
          credentialDefinitions: world.credentialDefinitions,
        }),
      ).toEqual({
        valid: false,
        reason: 'schema constructor was not given',
      })
    })

    it('answers any mutation of a good presentation with false or an AnonCredsError', () => {
      const req = request()
      const good = ours(req)
      const paths: (string | number)[][] = []
      const walk = (value: unknown, path: (string | number)[]) => {
        paths.push(path)
        if (Array.isArray(value)) value.slice(0, 3).forEach((v, i) => walk(v, [...path, i]))
        else if (typeof value === 'object' && value !== null)
          Object.entries(value).forEach(([k, v]) => walk(v, [...path, k]))
      }
      walk(good, [])
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: paths.length - 1 }),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 2100n }).map(String)),
          (at, replacement) => {
            const bad = clone(good)
            const path = paths[at]
            let parent: Json = bad
            for (const key of path.slice(0, -1)) parent = parent[key]
            parent[path[path.length - 1]] = replacement
            try {
              const result = verify(bad, req)
              // Still valid only when nothing proven changed: the same value, another self-attested value, or
              // an identifier timestamp (not part of the proof without revocation).
              const unproven = path.includes('self_attested_attrs') || path.includes('timestamp')
              return !result || unproven || JSON.stringify(bad) === JSON.stringify(good)
            } catch (error) {
              return error instanceof AnonCredsError
            }
          },
        ),
        { numRuns: 60 },
      )
    })

    it('refuses to prove what the credentials cannot give', () => {
      const req = request()
      expect(() => ours(req, { linkSecret: 'secret' })).toThrow(expect.objectContaining({ kind: 'malformed' }))
      expect(() => ours(req, { credentials: [{ credential: { ...world.person.credential, values: 3 } }] })).toThrow(
        AnonCredsError,
      )
      expect(() => ours(req, { schemas: {} })).toThrow(expect.objectContaining({ kind: 'invalid' }))
      expect(() =>
        ours(req, {
          credentialsProve: [{ entryIndex: 1, referent: 'name', isPredicate: false, reveal: true }],
        }),
      ).toThrow(expect.objectContaining({ kind: 'invalid' }))
      expect(() =>
        ours(req, { credentialsProve: [{ entryIndex: 5, referent: 'name', isPredicate: false, reveal: true }] }),
      ).toThrow(AnonCredsError)
      expect(() => ours(req, { credentials: [{ credential: world.person.credential, revocationState: {} }] })).toThrow(
        expect.objectContaining({ kind: 'malformed' }),
      )
      // A well-formed revocation state for a credential issued without revocation cannot be used.
      const infinity = `1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)} 1 ${'0'.repeat(64)}`
      const state = { witness: { omega: infinity }, rev_reg: { accum: infinity }, timestamp: 5 }
      expect(() =>
        ours(req, { credentials: [{ credential: world.person.credential, revocationState: state }] }),
      ).toThrow(expect.objectContaining({ kind: 'invalid', message: 'the credential is not revocable' }))
    })
  })
})
