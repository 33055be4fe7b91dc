import {
  credential,
  loadJsonLd,
  options,
  canonizeOptions,
  presentation,
  proofOptions,
  protectedRedefinition,
  scoped,
  signedCredential,
} from '../../../../test/helpers/jsonld-documents'

describe('shareTermDefinitions', () => {
  const stock = loadJsonLd('stock')
  const sharing = loadJsonLd('sharing')

  it('lets a child context hold its parent term definitions (stock jsonld.js copies them)', async () => {
    const context = { '@version': 1.1, name: 'https://example.org/name' }
    const stockContext = await stock.processContext(await stock.processContext(null, null, options), context, options)
    const sharingContext = await sharing.processContext(
      await sharing.processContext(null, null, options),
      context,
      options,
    )
    expect(stockContext.clone().mappings.get('name')).not.toBe(stockContext.mappings.get('name'))
    expect(sharingContext.clone().mappings.get('name')).toBe(sharingContext.mappings.get('name'))
    expect(sharingContext.clone().mappings).not.toBe(sharingContext.mappings)
  })

  it('expands and canonicalizes exactly as stock jsonld.js, the same document repeated and interleaved', async () => {
    const inputs = [credential, presentation, proofOptions, scoped, signedCredential, credential, scoped, presentation]
    for (const input of inputs) {
      expect(await sharing.expand(input, options)).toEqual(await stock.expand(input, options))
      expect(await sharing.canonize(input, canonizeOptions)).toBe(await stock.canonize(input, canonizeOptions))
    }
    const expanded = JSON.stringify(await sharing.expand(scoped, options))
    expect(expanded).toContain('https://example.org/personName')
    expect(expanded).toContain('https://example.org/knownName')
  })

  it('still refuses a protected term redefined, and the refusal leaves the outer definitions intact', async () => {
    await expect(stock.expand(protectedRedefinition, options)).rejects.toMatchObject({
      details: { code: 'protected term redefinition' },
    })
    await expect(sharing.expand(protectedRedefinition, options)).rejects.toMatchObject({
      details: { code: 'protected term redefinition' },
    })
    expect(await sharing.expand(scoped, options)).toEqual(await stock.expand(scoped, options))
  })
})
