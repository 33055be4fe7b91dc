/**
 * Translates Credo's tag query (the WQL subset Askar understands) into a SQL condition over a jsonb `tags`
 * column. Semantics follow Credo's Askar storage so records behave the same on either backend:
 * - `{ tag: value }`: the tag equals the value (strings and booleans compared as JSON, so `true` never
 *   matches `'1'`); several tags in one object must all match;
 * - `{ tag: [a, b] }`: the tag is an array holding every listed value (order and extra values ignored);
 * - `undefined` / `null` values add no condition (Askar drops them too);
 * - `$and` / `$or` combine sub-queries, `$not` negates one; an empty `$and` or `$or` adds no condition,
 *   like Askar's WQL encoder, which skips empty conjunctions.
 * Every plain tag condition becomes one `tags @> $n::jsonb` containment test, which the GIN index serves.
 */
export type TagValue = string | boolean | number | null | undefined | readonly string[]

export interface TagQuery {
  $and?: readonly TagQuery[]
  $or?: readonly TagQuery[]
  $not?: TagQuery
  [tag: string]: TagValue | readonly TagQuery[] | TagQuery | undefined
}

export interface SqlCondition {
  sql: string
  params: unknown[]
}

const OPERATORS = new Set(['$and', '$or', '$not'])

/** Stands for a parameter until the whole condition is known; numbered last, in order of appearance. */
const PLACEHOLDER = '\u0000'

interface Fragment {
  sql: string
  params: unknown[]
}

/**
 * @param firstParam number of the first `$n` placeholder (the caller's own parameters come first)
 * @throws {TypeError} when the query holds something that is neither a tag value nor an operator
 */
export function queryToSql(query: TagQuery, column = 'tags', firstParam = 1): SqlCondition {
  const fragment = translate(query, column)
  if (!fragment) return { sql: 'TRUE', params: [] }
  let index = firstParam
  return {
    sql: fragment.sql.split(PLACEHOLDER).reduce((acc, part) => `${acc}$${index++}${part}`),
    params: fragment.params,
  }
}

/**
 * Checks what `queryToSql` checks without building SQL, for queries answered in memory.
 * @throws {TypeError} as `queryToSql` does
 */
export function assertTagQuery(query: TagQuery): void {
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' || key === '$or') {
      if (value === undefined) continue
      if (!Array.isArray(value)) throw new TypeError('$and and $or take an array of queries')
      for (const sub of value as TagQuery[]) assertTagQuery(sub)
    } else if (key === '$not') {
      if (value !== undefined) assertTagQuery(value as TagQuery)
    } else {
      assertTagValue(key, value)
    }
  }
}

function assertTagValue(key: string, value: unknown): void {
  if (value === undefined || value === null) return
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === 'string'))
      throw new TypeError(`Tag ${key}: array values must be strings`)
  } else if (typeof value !== 'string' && typeof value !== 'boolean' && typeof value !== 'number') {
    throw new TypeError(`Tag ${key}: unsupported query value`)
  }
}

function translate(query: TagQuery, column: string): Fragment | undefined {
  const parts: Fragment[] = []
  const contained: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    if (OPERATORS.has(key) || value === undefined || value === null) continue
    assertTagValue(key, value)
    contained[key] = value
  }
  if (Object.keys(contained).length > 0) {
    parts.push({ sql: `${column} @> ${PLACEHOLDER}::jsonb`, params: [JSON.stringify(contained)] })
  }
  const and = query.$and === undefined ? undefined : combine(query.$and, 'AND', column)
  if (and) parts.push(and)
  const or = query.$or === undefined ? undefined : combine(query.$or, 'OR', column)
  if (or) parts.push(or)
  if (query.$not !== undefined) {
    const inner = translate(query.$not, column)
    // Negating "no condition" matches nothing, as negating an always-true query should.
    parts.push(inner ? { sql: `NOT (${inner.sql})`, params: inner.params } : { sql: 'FALSE', params: [] })
  }
  if (parts.length === 0) return undefined
  if (parts.length === 1) return parts[0]
  return { sql: parts.map((part) => `(${part.sql})`).join(' AND '), params: parts.flatMap((part) => part.params) }
}

function combine(queries: readonly TagQuery[], joiner: 'AND' | 'OR', column: string): Fragment | undefined {
  if (!Array.isArray(queries)) throw new TypeError('$and and $or take an array of queries')
  const inner = queries.map((sub) => translate(sub, column))
  // A sub-query without conditions is always true: it makes an OR true and drops out of an AND.
  if (joiner === 'OR' && inner.some((part) => part === undefined)) return { sql: 'TRUE', params: [] }
  const defined = inner.filter((part): part is Fragment => part !== undefined)
  if (defined.length === 0) return undefined
  if (defined.length === 1) return defined[0]
  return {
    sql: `(${defined.map((part) => `(${part.sql})`).join(` ${joiner} `)})`,
    params: defined.flatMap((part) => part.params),
  }
}
