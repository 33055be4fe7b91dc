import { DfaCache, type DfaState } from './dfa-cache'
import { contextAt, NfaStepper } from './nfa-stepper'
import { parsePattern, UnsupportedPatternError } from './pattern-parser'
import { compilePattern } from './pattern-program'

/**
 * Bounds of the linear-time matcher (docs/decisions.md, "Patterns"). Time per test is at most about
 * `programSize × inputLength` steps whatever the pattern; these keep that under a few tens of milliseconds.
 */
export const LINEAR_REGEXP_LIMITS = {
  /** Longest pattern compiled (the API stores at most 500; a verifier's PE filter may bring longer ones). */
  patternLength: 1000,
  /** Instructions of a compiled pattern, counted repetitions unrolled (`a{100}` takes 100). */
  programSize: 5000,
  /** Longest value tested against a pattern; a longer one is refused (InputTooLongError). */
  inputLength: 10_000,
  /**
   * Instructions alive, summed over the characters of one test (what an automaton without a cache visits): a few
   * tens of milliseconds at most. Real patterns keep a few alive; past it the value is refused
   * (PatternTooCostlyError).
   */
  work: 1_000_000,
  /** The same, summed over every test of one document checked within withPatternWorkBudget (a credential, a row). */
  documentWork: 2_000_000,
} as const

/** What the tests run inside withPatternWorkBudget may still spend; undefined outside. */
let sharedBudget: { remaining: number } | undefined

/**
 * Runs `check` (synchronous: an ajv validation) with one work budget for all the pattern tests it makes, so a
 * document of many long values against costly patterns is refused rather than holding the event loop for seconds.
 * @throws PatternTooCostlyError from the test that exceeds it
 */
export function withPatternWorkBudget<T>(work: number, check: () => T): T {
  const outer = sharedBudget
  const budget = { remaining: Math.min(work, outer?.remaining ?? Infinity) }
  sharedBudget = budget
  try {
    return check()
  } finally {
    sharedBudget = outer
    if (outer) outer.remaining -= Math.min(work, outer.remaining) - budget.remaining
  }
}

/**
 * What one pattern's DFA cache may hold: 16 384 instruction numbers (64 KiB) and 8 192 remembered steps, so the
 * hundreds of compiled schemas a process caches stay small whatever their patterns.
 */
const DFA_BUDGET = { storedPcs: 16_384, transitions: 8_192 }
/** Cache refills one test may cause before it goes on without the cache. */
const DFA_RESETS_PER_TEST = 2

/** A value longer than LINEAR_REGEXP_LIMITS.inputLength was to be tested against a pattern. */
export class InputTooLongError extends UnsupportedPatternError {
  public constructor(limit: number) {
    super(`values longer than ${limit} characters are not checked against a pattern`, 'value')
    this.name = 'InputTooLongError'
  }
}

/** A value whose test against a pattern would take more than LINEAR_REGEXP_LIMITS.work steps. */
export class PatternTooCostlyError extends UnsupportedPatternError {
  public constructor() {
    super('the value is too long to be checked against this pattern (shorten it, or simplify the pattern)', 'value')
    this.name = 'PatternTooCostlyError'
  }
}

/**
 * A regular expression with ECMAScript unicode-mode (`u`) semantics for `test`, run by a Thompson automaton over the
 * code points of the input: time linear in the input whatever the pattern (no backtracking, so `(a|a?)+$` on a long
 * run of `a`s costs what `a+$` does). It answers whether the pattern matches anywhere, which is all JSON Schema's
 * `pattern` and DIF Presentation Exchange filters ask; there are no captures. Backreferences and lookaround are
 * refused (UnsupportedPatternError), as they cannot be run without backtracking.
 *
 * Ajv takes it through `code.regExp` (linearRegExpEngine below). Not reentrant across threads; JavaScript has none.
 */
export class LinearRegExp {
  public readonly source: string
  public readonly flags: string
  private readonly stepper: NfaStepper
  private readonly dfa: DfaCache

  /**
   * @throws SyntaxError when the pattern is not a valid unicode-mode ECMAScript pattern
   * @throws UnsupportedPatternError for backreferences, lookaround, inline modifiers, flags other than `u`, and
   *   patterns past LINEAR_REGEXP_LIMITS
   */
  public constructor(source: string, flags = 'u') {
    if (flags !== 'u') throw new UnsupportedPatternError(`only the "u" flag is supported (got "${flags}")`)
    if (source.length > LINEAR_REGEXP_LIMITS.patternLength) {
      throw new UnsupportedPatternError(`patterns longer than ${LINEAR_REGEXP_LIMITS.patternLength} are not supported`)
    }
    // V8 parses it first: its syntax errors are ECMAScript's, and the parser below may rely on a valid pattern.
    new RegExp(source, 'u')
    this.source = source
    this.flags = flags
    this.stepper = new NfaStepper(compilePattern(parsePattern(source), LINEAR_REGEXP_LIMITS.programSize))
    this.dfa = new DfaCache(this.stepper, DFA_BUDGET)
  }

  /**
   * Whether the pattern matches somewhere in `input`, as `new RegExp(source, 'u').test(input)` answers.
   * @throws InputTooLongError for an input longer than LINEAR_REGEXP_LIMITS.inputLength
   * @throws PatternTooCostlyError when the test would take more than LINEAR_REGEXP_LIMITS.work steps; counted
   *   without the cache, so the answer depends on the pattern and the input only
   */
  public test(input: string): boolean {
    if (input.length > LINEAR_REGEXP_LIMITS.inputLength) throw new InputTooLongError(LINEAR_REGEXP_LIMITS.inputLength)
    const isAnchored = this.stepper.program.isAnchoredAtStart
    const resetsBefore = this.dfa.resets
    const budget = sharedBudget
    const limit = Math.min(LINEAR_REGEXP_LIMITS.work, budget?.remaining ?? Infinity)
    let state = this.dfa.start(contextAt(input, 0))
    let index = 0
    let work = 0
    while (!state.matched && index < input.length) {
      work += state.pcs.length
      if (work > limit) throw new PatternTooCostlyError()
      const codePoint = input.codePointAt(index) ?? 0
      index += codePoint > 0xffff ? 2 : 1
      state = this.dfa.next(state, codePoint, contextAt(input, index))
      if (!state.matched && state.pcs.length === 0 && isAnchored) break
      // Sets that never repeat fill the cache without paying back: go on without it.
      if (this.dfa.resets - resetsBefore > DFA_RESETS_PER_TEST) {
        return this.testWithoutCache(input, index, state, work, limit, budget)
      }
    }
    if (budget) budget.remaining -= work
    return state.matched
  }

  public toString(): string {
    return `/${this.source}/${this.flags}`
  }

  /** The rest of `test` from `index` with the stepper alone: one pass over the alive set per code point. */
  private testWithoutCache(
    input: string,
    index: number,
    state: DfaState,
    work: number,
    limit: number,
    budget: { remaining: number } | undefined,
  ): boolean {
    if (budget) budget.remaining -= work
    if (state.matched) return true
    const size = this.stepper.program.ops.length
    let current = new Int32Array(size)
    let next = new Int32Array(size)
    current.set(state.pcs)
    let count = state.pcs.length
    while (index < input.length) {
      work += count
      if (budget) budget.remaining -= count
      if (work > limit) throw new PatternTooCostlyError()
      const codePoint = input.codePointAt(index) ?? 0
      index += codePoint > 0xffff ? 2 : 1
      count = this.stepper.step(current, count, codePoint, contextAt(input, index), next)
      if (this.stepper.matched) return true
      if (count === 0 && this.stepper.program.isAnchoredAtStart) return false
      ;[current, next] = [next, current]
    }
    return false
  }
}

/**
 * The engine ajv compiles `pattern` and `patternProperties` with: `new Ajv({ code: { regExp: linearRegExpEngine } })`.
 * `code` names it only for ajv's standalone code generation, which the platform does not use.
 */
export const linearRegExpEngine = Object.assign((pattern: string, flags: string) => new LinearRegExp(pattern, flags), {
  code: 'new LinearRegExp',
})

/**
 * Why the matcher will not run `pattern`, or undefined when it will: the cheap check at the door (schema creation,
 * proof requests), with the same rules as compiling.
 */
export function patternRefusal(pattern: string): string | undefined {
  try {
    new LinearRegExp(pattern)
    return undefined
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return error.reason
    if (error instanceof SyntaxError) return 'is not a valid regular expression'
    throw error
  }
}
