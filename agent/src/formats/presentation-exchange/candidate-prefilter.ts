import { BoundedMap } from '@idplane/common'
import { LinearRegExp } from '@idplane/common/linear-regexp'

/**
 * A cheap, conservative test of whether a credential can satisfy a DIF Presentation Exchange v1 definition, used to
 * narrow the holder's candidates before PEX evaluates them (PEX runs a JSONPath engine per credential and field, so
 * a wallet with many credentials of one type paid for all of them on every proof request).
 *
 * It answers "cannot match" only when it is certain: every input descriptor has a required field whose paths are
 * plain member chains (`$.a.b`, `$['a']`) that resolve to no value passing the field's filter, and that filter uses
 * only `type`, `const`, `enum` and `pattern`. Anything else it does not understand counts as "may match", so PEX still
 * decides every case it could decide differently.
 */
export interface PresentationDefinitionV1Like {
  input_descriptors: readonly {
    constraints?: { fields?: readonly FieldLike[] }
  }[]
}

interface FieldLike {
  path: readonly string[]
  filter?: Record<string, unknown>
  optional?: boolean
}

type Verdict = 'no' | 'maybe'

export function mayMatchDefinition(definition: PresentationDefinitionV1Like, credential: unknown): boolean {
  const descriptors = definition.input_descriptors
  if (!Array.isArray(descriptors) || descriptors.length === 0) return true
  return descriptors.some((descriptor) => {
    const fields: readonly FieldLike[] = descriptor.constraints?.fields ?? []
    return fields.every((field) => field.optional === true || fieldVerdict(field, credential) === 'maybe')
  })
}

function fieldVerdict(field: FieldLike, credential: unknown): Verdict {
  if (!Array.isArray(field.path) || field.path.length === 0) return 'maybe'
  for (const path of field.path) {
    const segments = typeof path === 'string' ? memberChain(path) : undefined
    if (!segments) return 'maybe'
    const value = resolve(credential, segments)
    if (value === ABSENT) continue
    if (value === UNKNOWN) return 'maybe'
    if (!field.filter || filterVerdict(field.filter, value) === 'maybe') return 'maybe'
  }
  return 'no'
}

const ABSENT = Symbol('absent')
const UNKNOWN = Symbol('unknown')

/** `$.a.b['c d']` → ['a', 'b', 'c d']; undefined for anything beyond a plain member chain. */
export function memberChain(path: string): string[] | undefined {
  if (!path.startsWith('$')) return undefined
  const segments: string[] = []
  const token = /\.([A-Za-z_$][A-Za-z0-9_$-]*)|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y
  token.lastIndex = 1
  while (token.lastIndex < path.length) {
    const match = token.exec(path)
    if (!match) return undefined
    const quoted = match[2] ?? match[3]
    segments.push(match[1] ?? quoted.replace(/\\(.)/g, '$1'))
  }
  return segments
}

/** The value at the member chain; ABSENT when a member is missing, UNKNOWN through an array (JSONPath engines differ). */
function resolve(value: unknown, segments: readonly string[]): unknown {
  let current = value
  for (const segment of segments) {
    if (Array.isArray(current)) return UNKNOWN
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return ABSENT
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

const UNDERSTOOD_KEYWORDS = new Set(['type', 'const', 'enum', 'pattern', '$comment', 'title', 'description'])
/** Keywords `decideSimpleFilter` evaluates (annotations change nothing). */
const SIMPLE_KEYWORDS = new Set(['type', 'const', 'enum', '$comment', 'title', 'description'])
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'])

/**
 * Whether `value` satisfies a filter made only of `type` (JSON Schema's type names), a scalar `const` and an `enum`
 * of scalars: exactly what a JSON Schema validator answers, since for scalars its deep equality is `===`. Undefined
 * for any other filter. The verifier's check (linear-filter-evaluation) answers these without compiling a validator,
 * and this prefilter decides with it.
 */
export function decideSimpleFilter(filter: Record<string, unknown>, value: unknown): boolean | undefined {
  for (const keyword of Object.keys(filter)) if (!SIMPLE_KEYWORDS.has(keyword)) return undefined
  if (filter.type !== undefined) {
    const types: unknown[] = Array.isArray(filter.type) ? filter.type : [filter.type]
    // An empty list is left to the validator, as an unknown type name is (it may refuse such a schema).
    if (types.length === 0 || !types.every((type) => typeof type === 'string' && JSON_TYPES.has(type))) return undefined
    if (!(types as string[]).some((type) => hasType(value, type))) return false
  }
  if ('const' in filter) {
    if (!isScalar(filter.const)) return undefined
    if (filter.const !== value) return false
  }
  if (filter.enum !== undefined) {
    if (!Array.isArray(filter.enum) || filter.enum.length === 0 || !filter.enum.every(isScalar)) return undefined
    if (!filter.enum.includes(value)) return false
  }
  return true
}

function filterVerdict(filter: Record<string, unknown>, value: unknown): Verdict {
  if (Object.keys(filter).some((keyword) => !UNDERSTOOD_KEYWORDS.has(keyword))) return 'maybe'
  const { pattern, ...rest } = filter
  const decided = decideSimpleFilter(rest, value)
  if (decided === false) return 'no'
  if (decided === undefined) return 'maybe'
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') return 'maybe'
    // The linear-time matcher: a verifier's pattern must not cost the holder more than its length (issue 23).
    try {
      if (typeof value === 'string' && !patternOf(pattern).test(value)) return 'no'
    } catch {
      return 'maybe' // refused pattern or value: PEX decides, and reports it
    }
  }
  return 'maybe'
}

/** Compiled filter patterns: a definition asks the same of every candidate credential. */
const compiledPatterns = new BoundedMap<string, LinearRegExp>(200)

/** @throws UnsupportedPatternError, SyntaxError for a pattern the matcher will not run */
function patternOf(source: string): LinearRegExp {
  let pattern = compiledPatterns.get(source)
  if (!pattern) {
    pattern = new LinearRegExp(source)
    compiledPatterns.set(source, pattern)
  }
  return pattern
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}

/** JSON Schema `type` (one of JSON_TYPES), as a validator checks it without type coercion. */
function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number'
    case 'integer':
      return Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'null':
      return value === null
    case 'array':
      return Array.isArray(value)
    default:
      return value !== null && typeof value === 'object' && !Array.isArray(value)
  }
}
