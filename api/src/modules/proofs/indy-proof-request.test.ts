import { InvalidInputError } from '@idplane/common'
import { indyRequestFromAttributes, indyRequestFromJson } from './indy-proof-request'
import { anonCredsProofView, verificationStatusOf } from './verified-proof'

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
