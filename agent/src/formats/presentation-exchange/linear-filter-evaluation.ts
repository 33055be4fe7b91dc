import { InputDescriptorFilterEvaluationHandler } from '@animo-id/pex/dist/main/lib/evaluation/handlers/inputDescriptorFilterEvaluationHandler'
import { BoundedMap } from '@idplane/common'
import {
  InputTooLongError,
  LINEAR_REGEXP_LIMITS,
  linearRegExpEngine,
  PatternTooCostlyError,
  withPatternWorkBudget,
} from '@idplane/common/linear-regexp'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'

import { decideSimpleFilter } from './candidate-prefilter'

type FilterEvaluation = (this: unknown, result: { value: unknown }, field: { filter?: object }) => boolean

/**
 * PEX evaluates each field filter of a presentation definition here, with an ajv of its own that compiles `pattern`
 * for V8's backtracking engine: a verifier's `{"pattern": "(a|a?)+$"}` held the shared agent for seconds (issue 23,
 * item 2). The method is private to PEX, so its presence is checked when the agent starts, not assumed.
 */
const handlerPrototype = InputDescriptorFilterEvaluationHandler.prototype as unknown as {
  evaluateFilter?: FilterEvaluation
  transformDateFormat?: (this: unknown, result: { value: unknown }) => void
}

/** Compiled filters by their JSON; a definition repeats its filters for every candidate credential. */
const COMPILED_FILTERS_CACHED = 500
const compiled = new BoundedMap<string, ValidateFunction>(COMPILED_FILTERS_CACHED)

/** Draft-07 (what DIF Presentation Exchange filters are) with PEX's options, and the linear-time pattern matcher. */
const ajv = new Ajv({ allowUnionTypes: true, strict: false, code: { regExp: linearRegExpEngine } })
addFormats(ajv)

let isInstalled = false

/**
 * Makes PEX evaluate field filters with the linear-time matcher (common/linear-regexp), for the holder choosing
 * credentials and the verifier checking a presentation alike. A filter whose pattern the matcher refuses
 * (backreferences, lookaround) fails the evaluation with that reason (UnsupportedPatternError, a 400); a value too
 * long or too costly for its pattern does not satisfy the filter.
 * @throws Error when PEX no longer has the method this replaces (an upgrade moved it)
 */
export function installLinearFilterEvaluation(): void {
  if (isInstalled) return
  const transformDateFormat = handlerPrototype.transformDateFormat
  if (typeof handlerPrototype.evaluateFilter !== 'function' || typeof transformDateFormat !== 'function') {
    throw new Error('PEX InputDescriptorFilterEvaluationHandler.evaluateFilter is missing (PEX changed)')
  }
  handlerPrototype.evaluateFilter = function evaluateFilterLinearly(result, field) {
    const filter = field.filter
    if (!filter) return true
    // PEX compares `format: date` filters on the date part of the value; its own helper does that rewrite.
    if ((filter as { format?: unknown }).format === 'date') transformDateFormat.call(this, result)
    return passes(filter, result.value)
  }
  isInstalled = true
}

/**
 * Whether `value` satisfies the filter. A filter of only `type`, a scalar `const` and scalar `enum` values is
 * answered directly (decideSimpleFilter): a verifier that asks for one value per request (`const`) would otherwise
 * compile a validator for every request.
 * @throws UnsupportedPatternError when the filter's pattern cannot be run in linear time
 */
export function passes(filter: object, value: unknown): boolean {
  const decided = decideSimpleFilter(filter as Record<string, unknown>, value)
  if (decided !== undefined) return decided
  const key = JSON.stringify(filter)
  let validate = compiled.get(key)
  if (!validate) {
    validate = ajv.compile(filter)
    // Ajv keeps every schema object it compiled; the cache above is the bounded one.
    ajv.removeSchema(filter)
    compiled.set(key, validate)
  }
  const check = validate
  try {
    return withPatternWorkBudget(LINEAR_REGEXP_LIMITS.documentWork, () => check(value))
  } catch (error) {
    if (error instanceof InputTooLongError || error instanceof PatternTooCostlyError) return false
    throw error
  }
}
