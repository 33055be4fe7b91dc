/** Longest slug base; a numeric suffix may follow (the column holds 220 characters). */
export const MAX_SLUG_BASE_LENGTH = 200

/** Used when a name has no letters or digits at all (for instance only punctuation or emoji). */
export const FALLBACK_SLUG = 'org'

/**
 * The public-profile path segment for a name: lower case ASCII letters and digits joined by single hyphens,
 * accents folded (`Café Ñandú` → `cafe-nandu`).
 */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_BASE_LENGTH)
    .replace(/-+$/, '')
  return slug === '' ? FALLBACK_SLUG : slug
}

/**
 * The first free slug for a base given the slugs already taken that start with it:
 * `acme-corp`, then `acme-corp-2`, `acme-corp-3`, ... (one past the highest numbered one).
 */
export function nextFreeSlug(base: string, taken: readonly string[]): string {
  const takenSet = new Set(taken)
  if (!takenSet.has(base)) return base
  const suffixPattern = new RegExp(`^${escapeRegExp(base)}-(\\d{1,9})$`)
  const highest = taken.reduce((max, slug) => {
    const suffix = suffixPattern.exec(slug)?.[1]
    return suffix === undefined ? max : Math.max(max, Number(suffix))
  }, 1)
  return `${base}-${highest + 1}`
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
