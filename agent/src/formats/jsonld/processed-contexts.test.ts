import {
  canonizeOptions,
  credential,
  loadCountingJsonLd,
  loadJsonLd,
  options,
  presentation,
  proofOptions,
  protectedRedefinition,
  scoped,
  signedCredential,
} from '../../../../test/helpers/jsonld-documents'

// Type-scoped contexts that propagate and that do not, a context reset by null inside a scope, a scoped @vocab, a
// nested node of the same type, and nodes that must regain the outer meanings after leaving a scope.
const nested = {
  '@context': {
    '@version': 1.1,
    ex: 'https://example.org/',
    '@vocab': 'https://example.org/vocab#',
    label: 'ex:label',
    Box: { '@id': 'ex:Box', '@context': { label: 'ex:boxLabel', inner: { '@id': 'ex:inner' } } },
    Sticky: { '@id': 'ex:Sticky', '@context': { '@propagate': true, label: 'ex:stickyLabel' } },
    Plain: { '@id': 'ex:Plain', '@context': [null, { label: 'https://example.org/plainLabel' }] },
    Vocab: { '@id': 'ex:Vocab', '@context': { '@vocab': 'https://example.org/other#' } },
  },
  '@type': 'Box',
  label: 'outer box',
  inner: [
    { '@type': 'Box', label: 'box in a box', inner: { label: 'no type: outer meaning' } },
    { '@type': 'Sticky', label: 'sticky', 'ex:child': { label: 'still sticky' } },
    { '@type': 'Plain', label: 'reset' },
    { '@type': 'Vocab', free: 'in the other vocabulary', 'ex:child': { free: 'back in the outer one' } },
    { '@type': ['Sticky', 'Box'], label: 'two types, sorted' },
  ],
}
// A protected context whose property-scoped context may redefine a protected term (a property-scoped context may);
// the same redefinition inlined in a document may not.
const guarded = {
  '@version': 1.1,
  '@protected': true,
  name: 'https://example.org/name',
  about: { '@id': 'https://example.org/about', '@context': { name: 'https://example.org/otherName' } },
}
const propertyScopedRedefinition = { '@context': guarded, about: { name: 'allowed here' } }
const inlinedRedefinition = { '@context': [guarded, { name: 'https://example.org/otherName' }], name: 'refused' }

// A context that is being defined is copied to validate a scoped context inside it (`inner`); a node that leaves a
// type's scope gets a copy of a copy of the same outer context. The two must not share a key, or the second node
// would see `extra`, defined only by the first node's context.
const OUTER = {
  '@version': 1.1,
  ex: 'https://example.org/',
  name: 'ex:name',
  Typed: { '@id': 'ex:Typed', '@context': { x: 'ex:x' } },
}
const INNER = { name: 'ex:innerName' }
const definingContext = {
  '@context': OUTER,
  'ex:a': { '@context': { extra: 'ex:extra', inner: { '@id': 'ex:inner', '@context': INNER } }, name: 'a' },
}
const leavingScope = { '@context': OUTER, '@type': 'Typed', 'ex:b': { '@context': INNER, name: 'b', extra: 'c' } }
const unsafe = { ...options, safe: false }

const ALL = [credential, presentation, proofOptions, scoped, signedCredential, nested, propertyScopedRedefinition]

describe('cacheProcessedContexts', () => {
  const stock = loadJsonLd('stock')

  it('expands and canonicalizes exactly as stock jsonld.js, the same documents repeated and interleaved', async () => {
    const cached = loadJsonLd('cached')
    for (const input of [...ALL, ...ALL.toReversed(), nested, credential, nested]) {
      expect(await cached.expand(input, options)).toEqual(await stock.expand(input, options))
      expect(await cached.canonize(input, canonizeOptions)).toBe(await stock.canonize(input, canonizeOptions))
    }
    const expanded = JSON.stringify(await cached.expand(nested, options))
    for (const iri of ['boxLabel', 'stickyLabel', 'plainLabel', 'other#free', 'vocab#free'])
      expect(expanded).toContain(`https://example.org/${iri}`)
  })

  it('keeps nothing computed from a context that was still being defined', async () => {
    const cached = loadJsonLd('cached')
    for (const input of [definingContext, leavingScope, definingContext, leavingScope])
      expect(await cached.expand(input, unsafe)).toEqual(await stock.expand(input, unsafe))
    expect(JSON.stringify(await cached.expand(leavingScope, unsafe))).not.toContain('extra')
  })

  it('tells a copy that leaves its scope from one that does not', async () => {
    const cached = loadJsonLd('cached')
    const outer = await cached.processContext(await cached.processContext(null, null, options), OUTER, options)
    const scopedCopy = outer.clone() as typeof outer & { previousContext?: unknown }
    scopedCopy.previousContext = outer
    const plainCopy = outer.clone() as typeof outer & { previousContext?: unknown }
    const fromScoped = (await cached.processContext(scopedCopy, INNER, options)) as { previousContext?: unknown }
    const fromPlain = (await cached.processContext(plainCopy, INNER, options)) as { previousContext?: unknown }
    expect(fromScoped.previousContext).toBeDefined()
    expect(fromPlain.previousContext).toBeUndefined()
  })

  it('processes a context for an active context made the same way only once', async () => {
    const counted = { stock: loadCountingJsonLd('stock'), cached: loadCountingJsonLd('cached') }
    const secondRun = async ({ jsonld, definitions }: (typeof counted)['stock']): Promise<number> => {
      await jsonld.canonize(presentation, canonizeOptions)
      const before = definitions()
      await jsonld.canonize(presentation, canonizeOptions)
      return definitions() - before
    }
    const stockDefinitions = await secondRun(counted.stock)
    expect(stockDefinitions).toBeGreaterThan(100)
    expect(await secondRun(counted.cached)).toBe(0)
  })

  it('refuses a protected term redefined inline even after a property-scoped context redefined it (stock does not)', async () => {
    const cached = loadJsonLd('cached')
    const fresh = loadJsonLd('stock')
    const refused = { details: { code: 'protected term redefinition' } }
    await expect(fresh.expand(inlinedRedefinition, options)).rejects.toMatchObject(refused)
    await expect(cached.expand(inlinedRedefinition, options)).rejects.toMatchObject(refused)
    for (const jsonld of [fresh, cached])
      expect(await jsonld.expand(propertyScopedRedefinition, options)).toEqual([
        { 'https://example.org/about': [{ 'https://example.org/otherName': [{ '@value': 'allowed here' }] }] },
      ])
    // jsonld.js answers the inlined context from the property-scoped use's entry in its cache.
    expect(await fresh.expand(inlinedRedefinition, options)).toEqual([
      { 'https://example.org/otherName': [{ '@value': 'refused' }] },
    ])
    await expect(cached.expand(inlinedRedefinition, options)).rejects.toMatchObject(refused)
    await expect(cached.expand(protectedRedefinition, options)).rejects.toMatchObject(refused)
  })
})
