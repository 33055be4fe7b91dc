/**
 * Restriction queries of presentation requests, parsed and evaluated as anoncreds-rs does (utils/query.rs and
 * verifier.rs process_operator): an object is the AND of its keys; `$and`/`$or` take arrays (empty ones
 * vanish); `$not` an object; a tag maps to a string (equality) or to `{$neq: s}` / `{$in: [s...]}`; the legacy
 * array form is the OR of its objects. `$gt`, `$gte`, `$lt`, `$lte`, `$like` and `$exist` parse but never
 * match, as in anoncreds-rs.
 */
import { malformed } from '../errors'

export type Query =
  | { readonly op: 'eq' | 'neq'; readonly tag: string; readonly value: string }
  | { readonly op: 'in'; readonly tag: string; readonly values: readonly string[] }
  | { readonly op: 'and' | 'or'; readonly items: readonly Query[] }
  | { readonly op: 'not'; readonly item: Query }
  | { readonly op: 'unsupported'; readonly tags: readonly string[] }

const MAX_DEPTH = 32

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function parseRestrictions(value: unknown, path: string): Query {
  if (Array.isArray(value)) {
    const items: Query[] = []
    value.forEach((entry, i) => {
      if (!isPlainObject(entry)) throw malformed(`${path}[${i}]`, 'must be an object')
      const kept = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== null))
      if (Object.keys(kept).length > 0) items.push(parseObject(kept, `${path}[${i}]`, 1))
    })
    return items.length === 0 ? { op: 'and', items: [] } : { op: 'or', items }
  }
  if (!isPlainObject(value)) throw malformed(path, 'must be an object or an array of objects')
  return parseObject(value, path, 0)
}

function parseObject(json: Record<string, unknown>, path: string, depth: number): Query {
  if (depth > MAX_DEPTH) throw malformed(path, 'is nested too deeply')
  const items: Query[] = []
  for (const [key, value] of Object.entries(json)) {
    const item = parseOperator(key, value, `${path}.${key}`, depth)
    if (item) items.push(item)
  }
  return items.length === 1 ? items[0] : { op: 'and', items }
}

function parseList(value: unknown, path: string, depth: number): Query[] {
  if (!Array.isArray(value)) throw malformed(path, 'must be an array of objects')
  return value.map((entry, i) => {
    if (!isPlainObject(entry)) throw malformed(`${path}[${i}]`, 'must be an object')
    return parseObject(entry, `${path}[${i}]`, depth + 1)
  })
}

function parseOperator(key: string, value: unknown, path: string, depth: number): Query | undefined {
  switch (key) {
    case '$and':
    case '$or': {
      const items = parseList(value, path, depth)
      return items.length === 0 ? undefined : { op: key === '$and' ? 'and' : 'or', items }
    }
    case '$not':
      if (!isPlainObject(value)) throw malformed(path, 'must be an object')
      return { op: 'not', item: parseObject(value, path, depth + 1) }
    case '$exist': {
      const tags = typeof value === 'string' ? [value] : value
      if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) {
        throw malformed(path, 'must be a string or an array of strings')
      }
      return tags.length === 0 ? undefined : { op: 'unsupported', tags: tags as string[] }
    }
  }
  if (typeof value === 'string') return { op: 'eq', tag: key, value }
  if (!isPlainObject(value) || Object.keys(value).length !== 1) {
    throw malformed(path, 'must be a string or an object with one operator')
  }
  const [operator, operand] = Object.entries(value)[0]
  if (operator === '$in') {
    if (!Array.isArray(operand) || operand.some((v) => typeof v !== 'string')) {
      throw malformed(`${path}.$in`, 'must be an array of strings')
    }
    return { op: 'in', tag: key, values: operand as string[] }
  }
  if (!['$neq', '$gt', '$gte', '$lt', '$lte', '$like'].includes(operator))
    throw malformed(`${path}`, `unknown operator ${operator}`)
  if (typeof operand !== 'string') throw malformed(`${path}.${operator}`, 'must be a string')
  return operator === '$neq' ? { op: 'neq', tag: key, value: operand } : { op: 'unsupported', tags: [key] }
}

/** Every tag name a query uses (for the issuer_id/issuer_did mixing check). */
export function queryTags(query: Query): string[] {
  switch (query.op) {
    case 'eq':
    case 'neq':
    case 'in':
      return [query.tag]
    case 'and':
    case 'or':
      return query.items.flatMap(queryTags)
    case 'not':
      return queryTags(query.item)
    case 'unsupported':
      return [...query.tags]
  }
}

/** What a credential is known by: its identifiers and the schema's fields. */
export interface RestrictionFilter {
  readonly schemaId: string
  readonly schemaIssuerId: string
  readonly schemaName: string
  readonly schemaVersion: string
  readonly issuerId: string
  readonly credDefId: string
}

const LEGACY_DID = /^[1-9A-HJ-NP-Za-km-z]{21,22}$/
const INTERNAL_TAG = /^attr::([^:]+)::(value|marker)$/

/**
 * True when the query holds for the credential. `attributes` maps the names the request shows for this
 * credential to their revealed raw value (undefined when hidden), which `attr::<name>::value` compares against.
 */
export function matchesQuery(
  query: Query,
  filter: RestrictionFilter,
  attributes: ReadonlyMap<string, string | undefined>,
): boolean {
  switch (query.op) {
    case 'eq':
      return matchesTag(query.tag, query.value, filter, attributes)
    case 'neq':
      return !matchesTag(query.tag, query.value, filter, attributes)
    case 'in':
      return query.values.some((value) => matchesTag(query.tag, value, filter, attributes))
    case 'and':
      return query.items.every((item) => matchesQuery(item, filter, attributes))
    case 'or':
      return query.items.some((item) => matchesQuery(item, filter, attributes))
    case 'not':
      return !matchesQuery(query.item, filter, attributes)
    case 'unsupported':
      return false
  }
}

function matchesTag(
  tag: string,
  value: string,
  filter: RestrictionFilter,
  attributes: ReadonlyMap<string, string | undefined>,
): boolean {
  switch (tag) {
    case 'schema_id':
      return filter.schemaId === value
    case 'schema_issuer_did':
      return LEGACY_DID.test(filter.schemaIssuerId) && filter.schemaIssuerId === value
    case 'schema_issuer_id':
      return filter.schemaIssuerId === value
    case 'schema_name':
      return filter.schemaName === value
    case 'schema_version':
      return filter.schemaVersion === value
    case 'cred_def_id':
      return filter.credDefId === value
    case 'issuer_did':
      return LEGACY_DID.test(filter.issuerId) && filter.issuerId === value
    case 'issuer_id':
      return filter.issuerId === value
  }
  const internal = INTERNAL_TAG.exec(tag)
  if (internal && attributes.has(internal[1])) {
    // As anoncreds-rs: a revealed value must equal the tag value (for `marker` too); a hidden one passes,
    // since the holder's wallet query already applied the restriction.
    const revealed = attributes.get(internal[1])
    return revealed === undefined || revealed === value
  }
  // A marker on an attribute the request does not name is accepted, any other tag is unknown.
  return tag.startsWith('attr::') && tag.endsWith('::marker')
}
