import { mayMatchDefinition, memberChain, type PresentationDefinitionV1Like } from './candidate-prefilter'

const credential = {
  type: ['VerifiableCredential', 'UniversityDegreeCredential'],
  credentialSubject: { id: 'did:example:holder', degree: { name: 'BSc Physics', level: 6 } },
  evidence: [{ kind: 'exam' }],
}

function definition(...descriptors: object[][]): PresentationDefinitionV1Like {
  return {
    input_descriptors: descriptors.map((fields) => ({ constraints: { fields } })),
  } as PresentationDefinitionV1Like
}

const degreeName = (filter: object, extra: object = {}) => ({
  path: ['$.credentialSubject.degree.name'],
  filter,
  ...extra,
})

describe('mayMatchDefinition', () => {
  it.each([
    ['const that differs', [degreeName({ type: 'string', const: 'MSc' })]],
    ['enum without the value', [degreeName({ enum: ['MSc', 'PhD'] })]],
    ['pattern that fails', [degreeName({ type: 'string', pattern: '^MSc' })]],
    ['wrong type', [degreeName({ type: 'number' })]],
    ['a path that resolves nowhere', [{ path: ['$.credentialSubject.degree.missing'] }]],
    ['integer for a string', [{ path: ['$.credentialSubject.degree.name'], filter: { type: 'integer' } }]],
  ])('rules out a credential for a %s', (_name, fields) => {
    expect(mayMatchDefinition(definition(fields), credential)).toBe(false)
  })

  it.each([
    ['const that equals', [degreeName({ type: 'string', const: 'BSc Physics' })]],
    ['enum with the value', [degreeName({ enum: ['BSc Physics'] })]],
    ['pattern that passes', [degreeName({ pattern: '^BSc' })]],
    ['a field without filter on a present path', [{ path: ['$.credentialSubject.degree.level'] }]],
    ['an optional field that fails', [degreeName({ const: 'MSc' }, { optional: true })]],
    [
      'a second path that passes',
      [{ path: ['$.nope', "$['credentialSubject']['degree']['name']"], filter: { const: 'BSc Physics' } }],
    ],
    ['a filter keyword it does not evaluate', [degreeName({ type: 'string', minLength: 100 })]],
    ['a path it does not evaluate', [{ path: ['$..name'], filter: { const: 'MSc' } }]],
    ['a path through an array', [{ path: ['$.evidence.kind'], filter: { const: 'other' } }]],
    ['an invalid pattern', [degreeName({ pattern: '(' })]],
    ['no constraints', []],
  ])('keeps a credential for a %s', (_name, fields) => {
    expect(mayMatchDefinition(definition(fields), credential)).toBe(true)
  })

  it('keeps a credential that any one input descriptor may match', () => {
    const bothWays = definition([degreeName({ const: 'MSc' })], [degreeName({ const: 'BSc Physics' })])
    expect(mayMatchDefinition(bothWays, credential)).toBe(true)
    expect(
      mayMatchDefinition(definition([degreeName({ const: 'MSc' })], [degreeName({ const: 'PhD' })]), credential),
    ).toBe(false)
  })
})

describe('memberChain', () => {
  it.each([
    ['$.a.b', ['a', 'b']],
    ["$['a b'].c", ['a b', 'c']],
    ['$["x"]', ['x']],
    ['$', []],
  ])('reads %s', (path, segments) => {
    expect(memberChain(path)).toEqual(segments)
  })

  it.each(['$..a', '$.a[0]', '$.a[*]', '$.a[?(@.b)]', 'a.b', '$.a.'])('does not read %s', (path) => {
    expect(memberChain(path)).toBeUndefined()
  })
})
