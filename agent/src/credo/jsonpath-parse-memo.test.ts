import { JSONPath } from '@astronautlabs/jsonpath'

import { rememberJsonPathParses } from './jsonpath-parse-memo'

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's parser module, as the memo patches it
const parserModule = require('@astronautlabs/jsonpath/dist/parser') as {
  Parser: new () => { parse(p: string): unknown }
}
const Original = parserModule.Parser

const PATHS = [
  '$.credentialSubject.degree.type',
  "$['credentialSubject']['name']",
  '$..id',
  '$.verifiableCredential[0]',
  '$.items[?(@.price < 10)].name',
  '$.type[*]',
]

const credential = {
  id: 'urn:credential:1',
  type: ['VerifiableCredential', 'UniversityDegreeCredential'],
  credentialSubject: { id: 'did:key:holder', name: 'Alice', degree: { type: 'BachelorDegree' } },
  verifiableCredential: [{ id: 'inner' }],
  items: [
    { name: 'cheap', price: 5 },
    { name: 'dear', price: 50 },
  ],
}

describe('rememberJsonPathParses', () => {
  // The answers of the library as shipped, taken before the memo is installed.
  const before = PATHS.map((path) => ({
    tree: new Original().parse(path),
    nodes: JSONPath.nodes(credential, path),
  }))

  beforeAll(() => rememberJsonPathParses())

  it('is installed on the module the library queries through', () => {
    expect(parserModule.Parser).not.toBe(Original)
  })

  it.each(PATHS.map((path, i) => [path, i] as const))('parses and queries %s as before, every time', (path, i) => {
    for (let round = 0; round < 3; round++) {
      expect(JSONPath.parse(path)).toEqual(before[i].tree)
      expect(JSONPath.nodes(credential, path)).toEqual(before[i].nodes)
    }
  })

  it("hands each caller its own tree: one caller's change is not the next one's", () => {
    const path = '$.credentialSubject.degree.type'
    const first = JSONPath.parse(path) as Array<{ expression: { value: unknown } }>
    first.shift()
    first[0].expression.value = 'changed'
    expect(JSONPath.parse(path)).toEqual(before[0].tree)
    expect(JSONPath.query(credential, path)).toEqual(['BachelorDegree'])
  })

  it('refuses a path the grammar refuses, every time', () => {
    for (let round = 0; round < 2; round++) expect(() => JSONPath.parse('$.[')).toThrow()
  })

  it('is installed once', () => {
    const installed = parserModule.Parser
    rememberJsonPathParses()
    expect(parserModule.Parser).toBe(installed)
  })
})
