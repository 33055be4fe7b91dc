import type { AssertionKind } from './pattern-parser'
import { Op, type PatternProgram } from './pattern-program'

/** Where the automaton stands between two characters, as bits: what `^`, `$`, `\b` and `\B` look at. */
export const AT_START = 1
export const AT_END = 2
export const AFTER_WORD = 4
export const BEFORE_WORD = 8

/** The context at code-unit `index` of `input`. */
export function contextAt(input: string, index: number): number {
  return (
    (index === 0 ? AT_START : 0) |
    (index >= input.length ? AT_END : 0) |
    (index > 0 && isWordUnit(input.charCodeAt(index - 1)) ? AFTER_WORD : 0) |
    (index < input.length && isWordUnit(input.charCodeAt(index)) ? BEFORE_WORD : 0)
  )
}

/**
 * One step of a Thompson automaton over sets of instructions: the set of `Char` instructions alive before a code
 * point, and whether `Match` was reached. Work per step is at most one visit per instruction, whatever the pattern.
 * Not reentrant (its scratch arrays are reused); JavaScript runs one test at a time.
 */
export class NfaStepper {
  /** Set by `start` and `step`: `Match` was reached. */
  public matched = false
  private readonly marks: Uint32Array
  private readonly stack: Int32Array
  private generation = 0

  public constructor(public readonly program: PatternProgram) {
    this.marks = new Uint32Array(program.ops.length)
    this.stack = new Int32Array(2 * program.ops.length + 2)
  }

  /** The alive set at the start of the input, written to `out`; answers its size. */
  public start(context: number, out: Int32Array): number {
    this.begin()
    return this.close(0, context, out, 0)
  }

  /** The alive set after `codePoint` (from `count` entries of `from`), written to `out`; answers its size. */
  public step(from: Int32Array, count: number, codePoint: number, context: number, out: Int32Array): number {
    const { ops, predicates, isAnchoredAtStart } = this.program
    this.begin()
    let size = 0
    for (let position = 0; position < count && !this.matched; position++) {
      const pc = from[position]
      if (ops[pc] === Op.Char && predicates[pc]?.(codePoint)) size = this.close(pc + 1, context, out, size)
    }
    // A match may also begin here (an unanchored search), unless every path starts with `^`.
    if (!this.matched && !isAnchoredAtStart) size = this.close(0, context, out, size)
    return size
  }

  private begin(): void {
    this.matched = false
    this.generation++
    if (this.generation === 0xffffffff) {
      this.marks.fill(0)
      this.generation = 1
    }
  }

  /** Adds `start` and everything reachable from it without consuming a character to `out` after `size` entries. */
  private close(start: number, context: number, out: Int32Array, size: number): number {
    const { ops, first, second, assertions } = this.program
    const { marks, stack, generation } = this
    let top = 0
    stack[top++] = start
    while (top > 0) {
      const pc = stack[--top]
      if (marks[pc] === generation) continue
      marks[pc] = generation
      switch (ops[pc]) {
        case Op.Char:
          out[size++] = pc
          break
        case Op.Match:
          this.matched = true
          break
        case Op.Jump:
          stack[top++] = first[pc]
          break
        case Op.Split:
          stack[top++] = second[pc]
          stack[top++] = first[pc]
          break
        case Op.Assert:
          if (holds(assertions[pc], context)) stack[top++] = pc + 1
          break
      }
    }
    return size
  }
}

function holds(kind: AssertionKind | undefined, context: number): boolean {
  switch (kind) {
    case 'start':
      return (context & AT_START) !== 0
    case 'end':
      return (context & AT_END) !== 0
    case 'wordBoundary':
      return ((context & AFTER_WORD) !== 0) !== ((context & BEFORE_WORD) !== 0)
    case 'notWordBoundary':
      return ((context & AFTER_WORD) !== 0) === ((context & BEFORE_WORD) !== 0)
    default:
      return false
  }
}

/** `\w` without the `i` flag: ASCII letters, digits and `_` (the units of a surrogate pair are none of them). */
function isWordUnit(unit: number): boolean {
  return (
    (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a) || unit === 0x5f
  )
}
