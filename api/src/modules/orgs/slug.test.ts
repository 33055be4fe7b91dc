import { FALLBACK_SLUG, MAX_SLUG_BASE_LENGTH, nextFreeSlug, slugify } from './slug'

describe('slugify', () => {
  it.each([
    ['Acme Corp', 'acme-corp'],
    ['  ACME   corp!! ', 'acme-corp'],
    ['Café Ñandú', 'cafe-nandu'],
    ['a_b.c/d', 'a-b-c-d'],
    ['100% Labs', '100-labs'],
    ['---', FALLBACK_SLUG],
    ['東京', FALLBACK_SLUG],
  ])('turns %j into %j', (name, slug) => {
    expect(slugify(name)).toBe(slug)
  })

  it('caps the base length without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(MAX_SLUG_BASE_LENGTH - 1)} bcd`)
    expect(slug).toHaveLength(MAX_SLUG_BASE_LENGTH - 1)
    expect(slug.endsWith('-')).toBe(false)
  })
})

describe('nextFreeSlug', () => {
  it.each([
    [[], 'acme-corp'],
    [['acme-corp-2'], 'acme-corp'],
    [['acme-corp'], 'acme-corp-2'],
    [['acme-corp', 'acme-corp-2'], 'acme-corp-3'],
    [['acme-corp', 'acme-corp-7', 'acme-corp-3'], 'acme-corp-8'],
    [['acme-corp', 'acme-corp-labs', 'acme-corp-2-2'], 'acme-corp-2'],
  ])('given %j picks %j', (taken, expected) => {
    expect(nextFreeSlug('acme-corp', taken)).toBe(expected)
  })

  it('treats regular-expression characters in the base literally', () => {
    expect(nextFreeSlug('a.b', ['a.b', 'axb-5'])).toBe('a.b-2')
  })
})
