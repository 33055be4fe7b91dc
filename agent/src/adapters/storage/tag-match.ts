import type { TagQuery } from './query-to-sql'

type Tags = Readonly<Record<string, unknown>>

const OPERATORS = new Set(['$and', '$or', '$not'])

/**
 * Evaluates a tag query against one record's tags in memory, with exactly the semantics of `queryToSql` (jsonb
 * containment): a scalar equals the tag (an array tag never equals a scalar), an array query needs every listed
 * value in an array tag, undefined and null add no condition, `$not` of no condition matches nothing.
 */
export function matchesTagQuery(query: TagQuery, tags: Tags): boolean {
  return evaluate(query, tags) ?? true
}

/** undefined: the query sets no condition (always true, but false under `$not`). */
function evaluate(query: TagQuery, tags: Tags): boolean | undefined {
  const results: boolean[] = []
  for (const [key, value] of Object.entries(query)) {
    if (OPERATORS.has(key) || value === undefined || value === null) continue
    const tag = tags[key]
    if (Array.isArray(value)) results.push(Array.isArray(tag) && value.every((item) => tag.includes(item)))
    else results.push(!Array.isArray(tag) && tag === value)
  }
  if (query.$and !== undefined) {
    const inner = query.$and.map((sub) => evaluate(sub, tags)).filter((part) => part !== undefined)
    if (inner.length > 0) results.push(inner.every(Boolean))
  }
  if (query.$or !== undefined) {
    const inner = query.$or.map((sub) => evaluate(sub, tags))
    if (inner.some((part) => part === undefined)) results.push(true)
    else if (inner.length > 0) results.push(inner.some(Boolean))
  }
  if (query.$not !== undefined) {
    const inner = evaluate(query.$not, tags)
    results.push(inner === undefined ? false : !inner)
  }
  return results.length === 0 ? undefined : results.every(Boolean)
}
