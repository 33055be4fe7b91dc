import { ValidateBy, type ValidationOptions } from 'class-validator'
import { patternRefusal } from '@idplane/common/linear-regexp'

/** Deepest nesting of a filter that is searched for patterns (a deeper one is refused as well). */
const MAX_FILTER_DEPTH = 20

/**
 * A PE field filter (a JSON Schema) whose `pattern`s and `patternProperties` the agents' linear-time matcher runs:
 * refused at the door with the reason, instead of failing on the holder's or verifier's agent (docs/decisions.md,
 * "Patterns").
 */
export function HasRunnablePatterns(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasRunnablePatterns',
      validator: {
        validate: (value: unknown) => filterPatternRefusal(value) === undefined,
        defaultMessage: (args) => `has a pattern that cannot be run: ${filterPatternRefusal(args?.value) ?? ''}`,
      },
    },
    options,
  )
}

/** Why a pattern somewhere in `schema` is refused, or undefined when every one is runnable. */
export function filterPatternRefusal(schema: unknown, depth = 0): string | undefined {
  if (depth > MAX_FILTER_DEPTH) return `nested deeper than ${MAX_FILTER_DEPTH} levels`
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const refusal = filterPatternRefusal(item, depth + 1)
      if (refusal) return refusal
    }
    return undefined
  }
  if (typeof schema !== 'object' || schema === null) return undefined
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string') {
      const refusal = patternRefusal(value)
      if (refusal) return `${value}: ${refusal}`
    }
    if (key === 'patternProperties' && typeof value === 'object' && value !== null) {
      for (const name of Object.keys(value)) {
        const refusal = patternRefusal(name)
        if (refusal) return `${name}: ${refusal}`
      }
    }
    const refusal = filterPatternRefusal(value, depth + 1)
    if (refusal) return refusal
  }
  return undefined
}
