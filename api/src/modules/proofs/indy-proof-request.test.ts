import { InvalidInputError } from '@idplane/common'
import { indyRequestFromAttributes, indyRequestFromJson, withBothLedgerIdForms } from './indy-proof-request'
import { anonCredsProofView, revocationChecksOf, verificationStatusOf } from './verified-proof'

function fieldsOf(work: () => unknown): string[] {
  try {
    work()
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields.map((field) => field.field)
    throw error
  }
  return []
}

describe('indyRequestFromAttributes', () => {
  it('maps attributes, a group and predicates with their restrictions', () => {
    const request = indyRequestFromAttributes([
      { attributeName: 'name', credDefId: 'cd' },
      { attributeNames: ['name', 'degree'], schemaId: 's', credDefId: 'cd' },
      { attributeName: 'age', condition: '>=', value: '18' },
      { attributeName: 'age', condition: '<', value: '-3' },
    ])
    expect(request.requested_attributes).toEqual({
      attribute_0: { name: 'name', restrictions: [{ cred_def_id: 'cd' }] },
      attribute_group_1: { names: ['name', 'degree'], restrictions: [{ schema_id: 's', cred_def_id: 'cd' }] },
    })
    expect(request.requested_predicates).toEqual({
      predicate_2: { name: 'age', p_type: '>=', p_value: 18 },
      predicate_3: { name: 'age', p_type: '<', p_value: -3 },
    })
  })

  it('refuses name with names, neither, condition without value and value without condition, out of range', () => {
    expect(
      fieldsOf(() =>
        indyRequestFromAttributes([
          { attributeName: 'a', attributeNames: ['b'] },
          {},
          { attributeName: 'a', condition: '>' },
          { attributeName: 'a', value: '3' },
          { attributeName: 'a', condition: '>', value: '9999999999' },
          { attributeNames: ['a'], condition: '>', value: '1' },
        ]),
      ),
    ).toEqual([
      'proofFormats.indy.attributes[0]',
      'proofFormats.indy.attributes[1]',
      'proofFormats.indy.attributes[2].value',
      'proofFormats.indy.attributes[3].condition',
      'proofFormats.indy.attributes[4].value',
      'proofFormats.indy.attributes[5].attributeNames',
    ])
  })
})

describe('indyRequestFromJson', () => {
  it('keeps a well-formed request', () => {
    const request = indyRequestFromJson({
      name: 'Age check',
      requested_attributes: { a: { name: 'name', restrictions: [{ cred_def_id: 'cd', 'attr::name::marker': '1' }] } },
      requested_predicates: { p: { name: 'age', p_type: '>=', p_value: 18 } },
    })
    expect(request).toEqual({
      name: 'Age check',
      version: '1.0',
      requested_attributes: { a: { name: 'name', restrictions: [{ cred_def_id: 'cd', 'attr::name::marker': '1' }] } },
      requested_predicates: { p: { name: 'age', p_type: '>=', p_value: 18 } },
    })
  })

  it('names each malformed entry', () => {
    expect(fieldsOf(() => indyRequestFromJson({}))).toEqual(['proofFormats.indy'])
    expect(
      fieldsOf(() =>
        indyRequestFromJson({
          requested_attributes: {
            a: { name: 'x', names: ['y'] },
            b: 'text',
            c: { name: 'x', extra: 1 },
            d: { names: [] },
          },
          requested_predicates: {
            p: { name: 'age', p_type: '!=', p_value: 1.5 },
            q: { name: 'age', p_type: '>', p_value: 1, restrictions: [{ nope: 'x' }] },
          },
        }),
      ),
    ).toEqual([
      'proofFormats.indy.requested_attributes.a',
      'proofFormats.indy.requested_attributes.b',
      'proofFormats.indy.requested_attributes.c',
      'proofFormats.indy.requested_attributes.d.names',
      'proofFormats.indy.requested_predicates.p.p_type',
      'proofFormats.indy.requested_predicates.p.p_value',
      'proofFormats.indy.requested_predicates.q.restrictions[0].nope',
    ])
  })
})

describe('verified proof view', () => {
  it('states each predicate, satisfied only once verified', () => {
    const summary = {
      revealedAttributes: { attribute_0: { name: 'name', raw: 'Alice' } },
      revealedAttributeGroups: { group: { name: 'Alice', degree: 'BA' } },
      predicates: { predicate_1: { name: 'age', p_type: '>=', p_value: 18 } },
      selfAttestedAttributes: {},
    }
    const view = anonCredsProofView(summary, true)
    expect(view.revealedAttributes).toEqual([{ referent: 'attribute_0', name: 'name', value: 'Alice' }])
    expect(view.revealedAttributeGroups).toEqual([{ referent: 'group', values: { name: 'Alice', degree: 'BA' } }])
    expect(view.predicates).toEqual([
      { referent: 'predicate_1', name: 'age', condition: '>=', value: 18, statement: 'age >= 18', satisfied: true },
    ])
    expect(anonCredsProofView(summary, null).predicates[0].satisfied).toBe(false)
    expect(anonCredsProofView(null, true)).toEqual({
      revealedAttributes: [],
      revealedAttributeGroups: [],
      predicates: [],
    })
  })

  it('tells an abandoned exchange from a pending one', () => {
    expect(verificationStatusOf(null, 'abandoned')).toBe('abandoned')
    expect(verificationStatusOf(null, 'request-sent')).toBe('pending')
    expect(verificationStatusOf(true, 'done')).toBe('verified')
    expect(verificationStatusOf(false, 'abandoned')).toBe('not-verified')
  })
})

describe('withBothLedgerIdForms', () => {
  const DID = 'Th7MpTaRZVRYnPiabds81Y'
  const legacyCredDef = `${DID}:3:CL:12:default`
  const indyCredDef = `did:indy:idplane:${DID}/anoncreds/v0/CLAIM_DEF/12/default`
  const legacySchema = `${DID}:2:degree:1.0`
  const indySchema = `did:indy:idplane:${DID}/anoncreds/v0/SCHEMA/degree/1.0`
  const request = (restrictions: Record<string, string>[]) => ({
    name: 'p',
    version: '1.0',
    requested_attributes: { a: { name: 'age', restrictions } },
    requested_predicates: { p: { name: 'age', p_type: '>=' as const, p_value: 18, restrictions } },
  })

  it('matches an Indy id given in either form by both forms (v2)', () => {
    for (const given of [legacyCredDef, indyCredDef]) {
      const expanded = withBothLedgerIdForms(request([{ cred_def_id: given }]), 'idplane', 'v2')
      expect(expanded.requested_attributes?.a?.restrictions).toEqual([
        { cred_def_id: legacyCredDef },
        { cred_def_id: indyCredDef },
      ])
      expect(expanded.requested_predicates?.p?.restrictions).toEqual(expanded.requested_attributes?.a?.restrictions)
    }
  })

  it('keeps the combination of schema and definition in every alternative', () => {
    const expanded = withBothLedgerIdForms(
      request([{ schema_id: legacySchema, cred_def_id: indyCredDef, issuer_id: DID }]),
      'idplane',
      'v2',
    )
    expect(expanded.requested_attributes?.a?.restrictions).toEqual([
      { schema_id: legacySchema, cred_def_id: legacyCredDef, issuer_id: DID },
      { schema_id: legacySchema, cred_def_id: indyCredDef, issuer_id: DID },
      { schema_id: indySchema, cred_def_id: legacyCredDef, issuer_id: DID },
      { schema_id: indySchema, cred_def_id: indyCredDef, issuer_id: DID },
    ])
  })

  it('gives v1 the legacy form only and leaves ids of other registries as they are', () => {
    const expanded = withBothLedgerIdForms(
      request([{ cred_def_id: indyCredDef }, { cred_def_id: 'did:key:z6Mk/anoncreds/v0/CLAIM_DEF/ab/default' }]),
      'idplane',
      'v1',
    )
    expect(expanded.requested_attributes?.a?.restrictions).toEqual([
      { cred_def_id: legacyCredDef },
      { cred_def_id: 'did:key:z6Mk/anoncreds/v0/CLAIM_DEF/ab/default' },
    ])
  })
})

describe('non_revoked (issue 25)', () => {
  it('carries { to } or { from, to } at the top and on OOB entries', () => {
    const request = indyRequestFromAttributes([{ attributeName: 'name' }], { to: 1_796_000_000 })
    expect(request.non_revoked).toEqual({ to: 1_796_000_000 })
    expect(indyRequestFromAttributes([{ attributeName: 'name' }]).non_revoked).toBeUndefined()
    const json = indyRequestFromJson({
      requested_attributes: { name: { name: 'name', non_revoked: { from: 5, to: 5 } } },
      requested_predicates: { adult: { name: 'age', p_type: '>=', p_value: 18, non_revoked: { to: 9 } } },
      non_revoked: { from: 1, to: 2 },
    })
    expect(json.non_revoked).toEqual({ from: 1, to: 2 })
    expect(json.requested_attributes?.name?.non_revoked).toEqual({ from: 5, to: 5 })
    expect(json.requested_predicates?.adult?.non_revoked).toEqual({ to: 9 })
  })

  it('refuses malformed intervals, naming each', () => {
    for (const interval of [{ to: 'soon' }, { from: 10, to: 5 }, { from: 1 }, { to: -1 }, { to: 1, until: 2 }, []]) {
      expect({
        interval,
        fields: fieldsOf(() => indyRequestFromAttributes([{ attributeName: 'n' }], interval)),
      }).toEqual({ interval, fields: ['proofFormats.indy.non_revoked'] })
    }
    expect(
      fieldsOf(() =>
        indyRequestFromJson({
          requested_attributes: { name: { name: 'name', non_revoked: { from: 10, to: 5 } } },
          non_revoked: { to: 1.5 },
        }),
      ),
    ).toEqual(['proofFormats.indy.non_revoked', 'proofFormats.indy.requested_attributes.name.non_revoked'])
  })
})

describe('revocationChecksOf (issue 25)', () => {
  it('reads the interval asked for and each credential proven against a status list', () => {
    const formData = {
      request: { anoncreds: { name: 'x', non_revoked: { to: 1_796_000_000 } } },
      presentation: {
        anoncreds: {
          identifiers: [
            { schema_id: 's', cred_def_id: 'cd-1', rev_reg_id: 'reg-1', timestamp: 1_795_999_950 },
            { schema_id: 's', cred_def_id: 'cd-2', rev_reg_id: null, timestamp: null },
            'junk',
          ],
        },
      },
    }
    expect(revocationChecksOf(formData)).toEqual({
      nonRevoked: { from: null, to: 1_796_000_000 },
      credentials: [
        {
          credentialDefinitionId: 'cd-1',
          revocationRegistryId: 'reg-1',
          statusListTimestamp: 1_795_999_950,
          checkedAt: new Date(1_795_999_950_000).toISOString(),
        },
      ],
    })
  })

  it('answers no checks for other formats, no request or malformed data', () => {
    const none = { nonRevoked: null, credentials: [] }
    expect(revocationChecksOf(null)).toEqual(none)
    expect(revocationChecksOf({ request: { dif: {} } })).toEqual(none)
    expect(revocationChecksOf({ request: { presentationExchange: {} } }, true)).toEqual({ ...none, statusLists: [] })
    expect(revocationChecksOf({ request: { indy: { non_revoked: { to: 'soon' } } }, presentation: 7 })).toEqual(none)
  })

  it('lists the Bitstring Status List entries of a verified Presentation Exchange presentation', () => {
    const list = 'https://api.example/v1/status-lists/4b0c'
    const entry = (purpose: string, index: string) => ({
      id: `${list}#${index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: purpose,
      statusListIndex: index,
      statusListCredential: list,
    })
    const formData = {
      request: { presentationExchange: { presentation_definition: {} } },
      presentation: {
        presentationExchange: {
          verifiableCredential: [
            { id: 'urn:uuid:1', issuer: 'did:key:z6MkA', credentialStatus: entry('revocation', '80321') },
            { issuer: { id: 'did:key:z6MkB' }, credentialStatus: [entry('suspension', '7'), entry('suspension', 'x')] },
            { issuer: 'did:key:z6MkC' },
            { issuer: 'did:key:z6MkD', credentialStatus: { ...entry('revocation', '1'), type: 'StatusList2021Entry' } },
          ],
        },
      },
    }
    expect(revocationChecksOf(formData, false)).toEqual({
      nonRevoked: null,
      credentials: [],
      statusLists: [
        {
          credentialId: 'urn:uuid:1',
          issuer: 'did:key:z6MkA',
          statusListCredential: list,
          statusListIndex: 80321,
          statusPurpose: 'revocation',
        },
        {
          credentialId: null,
          issuer: 'did:key:z6MkB',
          statusListCredential: list,
          statusListIndex: 7,
          statusPurpose: 'suspension',
        },
      ],
    })
    // Before a verification ran nothing was checked.
    expect(revocationChecksOf(formData, null)).toEqual({ nonRevoked: null, credentials: [], statusLists: [] })
  })
})
