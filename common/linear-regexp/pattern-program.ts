import { type AssertionKind, type CharPredicate, type PatternNode, UnsupportedPatternError } from './pattern-parser'

export const Op = { Char: 0, Split: 1, Jump: 2, Assert: 3, Match: 4 } as const
export type Op = (typeof Op)[keyof typeof Op]

/**
 * A Thompson automaton as a flat program: `Char` consumes one code point its predicate accepts and goes on to the next
 * instruction; `Split` goes on to both targets, `Jump` to one; `Assert` goes on when its assertion holds here;
 * `Match` ends a successful path.
 */
export interface PatternProgram {
  readonly ops: Uint8Array
  /** Jump and first Split target. */
  readonly first: Int32Array
  /** Second Split target. */
  readonly second: Int32Array
  readonly predicates: readonly (CharPredicate | undefined)[]
  /** Each different predicate once (copies of an unrolled repetition share theirs). */
  readonly distinctPredicates: readonly CharPredicate[]
  readonly assertions: readonly (AssertionKind | undefined)[]
  /** Every path starts with `^`: a match can only begin at the start of the input. */
  readonly isAnchoredAtStart: boolean
}

/**
 * Compiles the tree into a program of at most `maxInstructions`. Counted repetitions are unrolled (`a{3,5}` is
 * `aaa(a(a)?)?`), which is what the limit bounds: matching costs up to one step per instruction per character.
 * @throws UnsupportedPatternError when the program would exceed the limit
 */
export function compilePattern(root: PatternNode, maxInstructions: number): PatternProgram {
  const builder = new ProgramBuilder(maxInstructions)
  builder.emit(root)
  builder.add(Op.Match)
  return builder.build(isAnchoredAtStart(root))
}

class ProgramBuilder {
  private readonly ops: Op[] = []
  private readonly first: number[] = []
  private readonly second: number[] = []
  private readonly predicates: (CharPredicate | undefined)[] = []
  private readonly assertions: (AssertionKind | undefined)[] = []

  public constructor(private readonly maxInstructions: number) {}

  public add(op: Op, predicate?: CharPredicate, assertion?: AssertionKind): number {
    if (this.ops.length >= this.maxInstructions) {
      throw new UnsupportedPatternError(
        `the pattern is too complex (more than ${this.maxInstructions} steps once its repetitions are counted out)`,
      )
    }
    this.ops.push(op)
    this.first.push(-1)
    this.second.push(-1)
    this.predicates.push(predicate)
    this.assertions.push(assertion)
    return this.ops.length - 1
  }

  public emit(node: PatternNode): void {
    switch (node.type) {
      case 'char':
        this.add(Op.Char, node.test)
        return
      case 'assertion':
        this.add(Op.Assert, undefined, node.kind)
        return
      case 'sequence':
        for (const item of node.items) this.emit(item)
        return
      case 'alternation':
        return this.emitAlternation(node.options)
      case 'repeat':
        return this.emitRepeat(node.body, node.min, node.max)
    }
  }

  private emitAlternation(options: readonly PatternNode[]): void {
    const jumpsToEnd: number[] = []
    for (const [index, option] of options.entries()) {
      if (index === options.length - 1) {
        this.emit(option)
        break
      }
      const split = this.add(Op.Split)
      this.first[split] = this.ops.length
      this.emit(option)
      jumpsToEnd.push(this.add(Op.Jump))
      this.second[split] = this.ops.length
    }
    for (const jump of jumpsToEnd) this.first[jump] = this.ops.length
  }

  private emitRepeat(body: PatternNode, min: number, max: number): void {
    if (max === Infinity) {
      for (let copy = 1; copy < min; copy++) this.emit(body)
      if (min >= 1) {
        // The last required copy loops: body, then back to it or on.
        const loopStart = this.ops.length
        this.emit(body)
        const split = this.add(Op.Split)
        this.first[split] = loopStart
        this.second[split] = this.ops.length
      } else {
        const split = this.add(Op.Split)
        this.first[split] = this.ops.length
        this.emit(body)
        this.first[this.add(Op.Jump)] = split
        this.second[split] = this.ops.length
      }
      return
    }
    for (let copy = 0; copy < min; copy++) this.emit(body)
    // Optional copies nest: skipping one skips the rest, so fewer paths are alive at once.
    const skips: number[] = []
    for (let copy = min; copy < max; copy++) {
      const split = this.add(Op.Split)
      this.first[split] = this.ops.length
      skips.push(split)
      this.emit(body)
    }
    for (const split of skips) this.second[split] = this.ops.length
  }

  public build(isAnchored: boolean): PatternProgram {
    return {
      ops: Uint8Array.from(this.ops),
      first: Int32Array.from(this.first),
      second: Int32Array.from(this.second),
      predicates: this.predicates,
      distinctPredicates: [...new Set(this.predicates.filter((test) => test !== undefined))],
      assertions: this.assertions,
      isAnchoredAtStart: isAnchored,
    }
  }
}

function isAnchoredAtStart(node: PatternNode): boolean {
  switch (node.type) {
    case 'assertion':
      return node.kind === 'start'
    case 'sequence':
      return node.items.length > 0 && isAnchoredAtStart(node.items[0])
    case 'alternation':
      return node.options.every(isAnchoredAtStart)
    case 'repeat':
      return node.min >= 1 && isAnchoredAtStart(node.body)
    case 'char':
      return false
  }
}
