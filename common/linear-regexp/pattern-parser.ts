import { InvalidInputError } from '../errors'

/** Whether one code point is matched by a single-character atom (a literal, `.`, a class or a class escape). */
export type CharPredicate = (codePoint: number) => boolean

export type AssertionKind = 'start' | 'end' | 'wordBoundary' | 'notWordBoundary'

/** A pattern as our matcher needs it: captures, names and greediness do not change whether it matches. */
export type PatternNode =
  | { readonly type: 'char'; readonly test: CharPredicate }
  | { readonly type: 'assertion'; readonly kind: AssertionKind }
  | { readonly type: 'sequence'; readonly items: readonly PatternNode[] }
  | { readonly type: 'alternation'; readonly options: readonly PatternNode[] }
  | { readonly type: 'repeat'; readonly body: PatternNode; readonly min: number; readonly max: number }

/** Highest count a `{n}`, `{n,}` or `{n,m}` may name (RE2's limit too). */
export const MAX_REPEAT_COUNT = 1000

/**
 * A pattern our linear-time matcher does not run, with the reason (a 400 names the field through `fields`):
 * backreferences and lookaround need backtracking, and counts past MAX_REPEAT_COUNT or a program past the size limit
 * would make each step too slow.
 */
export class UnsupportedPatternError extends InvalidInputError {
  public constructor(
    public readonly reason: string,
    field = 'pattern',
  ) {
    super(`Unsupported pattern: ${reason}`, [{ field, message: reason }])
    this.name = 'UnsupportedPatternError'
  }
}

const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029])
const SIMPLE_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d, '0': 0x00 }
/** Per-predicate memory of answers outside ASCII; cleared when full, so a long input of distinct characters is fine. */
const MEMO_LIMIT = 4096

/**
 * Parses an ECMAScript pattern in unicode mode (`u`, how JSON Schema's `pattern` is compiled by ajv) into the tree
 * our matcher runs. The pattern must already have compiled with `new RegExp(pattern, 'u')`: this parser relies on
 * V8 for syntax errors and only finds where each atom ends. Each single-character atom that is not a plain literal
 * (classes, `\d`, `\p{...}`) is decided by V8 itself on one code point at a time, so its meaning is exactly
 * ECMAScript's; a one-character test cannot backtrack.
 * @throws UnsupportedPatternError for backreferences, lookahead, lookbehind, inline modifiers and large counts
 */
export function parsePattern(source: string): PatternNode {
  const parser = new Parser(source)
  const node = parser.disjunction()
  if (!parser.isAtEnd()) throw new UnsupportedPatternError(`unexpected "${source[parser.position]}"`)
  return node
}

class Parser {
  public position = 0

  public constructor(private readonly source: string) {}

  public isAtEnd(): boolean {
    return this.position >= this.source.length
  }

  public disjunction(): PatternNode {
    const options = [this.alternative()]
    while (this.peek() === '|') {
      this.position++
      options.push(this.alternative())
    }
    return options.length === 1 ? options[0] : { type: 'alternation', options }
  }

  private alternative(): PatternNode {
    const items: PatternNode[] = []
    while (!this.isAtEnd() && this.peek() !== '|' && this.peek() !== ')') items.push(this.term())
    return items.length === 1 ? items[0] : { type: 'sequence', items }
  }

  private term(): PatternNode {
    const char = this.peek()
    if (char === '^' || char === '$') {
      this.position++
      return { type: 'assertion', kind: char === '^' ? 'start' : 'end' }
    }
    if (char === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      this.position += 2
      return { type: 'assertion', kind: this.source[this.position - 1] === 'b' ? 'wordBoundary' : 'notWordBoundary' }
    }
    const atom = char === '(' ? this.group() : this.atom()
    return this.quantified(atom)
  }

  private group(): PatternNode {
    const rest = this.source.slice(this.position, this.position + 4)
    if (rest.startsWith('(?=') || rest.startsWith('(?!'))
      throw new UnsupportedPatternError('lookahead is not supported')
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!'))
      throw new UnsupportedPatternError('lookbehind is not supported')
    if (rest.startsWith('(?:')) this.position += 3
    else if (rest.startsWith('(?<')) this.position = this.source.indexOf('>', this.position) + 1
    else if (rest.startsWith('(?')) throw new UnsupportedPatternError('inline modifiers are not supported')
    else this.position++
    const inner = this.disjunction()
    if (this.peek() !== ')') throw new UnsupportedPatternError('unbalanced parenthesis')
    this.position++
    return inner
  }

  private atom(): PatternNode {
    const start = this.position
    const char = this.peek()
    if (char === '.') {
      this.position++
      return { type: 'char', test: (codePoint) => !LINE_TERMINATORS.has(codePoint) }
    }
    if (char === '[') {
      this.position = classEnd(this.source, this.position)
      return { type: 'char', test: v8Predicate(this.source.slice(start, this.position)) }
    }
    if (char === '\\') return this.escape()
    const codePoint = this.source.codePointAt(this.position) ?? 0
    this.position += codePoint > 0xffff ? 2 : 1
    return literal(codePoint)
  }

  private escape(): PatternNode {
    const start = this.position
    const kind = this.peek(1)
    this.position += 2
    if (/[1-9]/.test(kind)) throw new UnsupportedPatternError('backreferences are not supported')
    if (kind === 'k') throw new UnsupportedPatternError('backreferences are not supported')
    if ('dDsSwW'.includes(kind)) return { type: 'char', test: v8Predicate(this.source.slice(start, this.position)) }
    if (kind === 'p' || kind === 'P') {
      this.position = this.source.indexOf('}', this.position) + 1
      return { type: 'char', test: v8Predicate(this.source.slice(start, this.position)) }
    }
    if (kind in SIMPLE_ESCAPES) return literal(SIMPLE_ESCAPES[kind])
    if (kind === 'c') {
      this.position++
      return literal(this.source.charCodeAt(this.position - 1) % 32)
    }
    if (kind === 'x') {
      this.position += 2
      return literal(parseInt(this.source.slice(start + 2, this.position), 16))
    }
    if (kind === 'u') return literal(this.unicodeEscape(start))
    // An identity escape: a syntax character or `/`.
    const codePoint = this.source.codePointAt(start + 1) ?? 0
    this.position = start + 1 + (codePoint > 0xffff ? 2 : 1)
    return literal(codePoint)
  }

  /** `\u{...}`, `\uXXXX`, or a surrogate pair written `\uD83D\uDE00` (one code point in unicode mode). */
  private unicodeEscape(start: number): number {
    if (this.peek() === '{') {
      const end = this.source.indexOf('}', this.position)
      this.position = end + 1
      return parseInt(this.source.slice(start + 3, end), 16)
    }
    const unit = parseInt(this.source.slice(this.position, this.position + 4), 16)
    this.position += 4
    const trail = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.source.slice(this.position, this.position + 6))
    if (unit >= 0xd800 && unit <= 0xdbff && trail) {
      this.position += 6
      return (unit - 0xd800) * 0x400 + (parseInt(trail[1], 16) - 0xdc00) + 0x10000
    }
    return unit
  }

  private quantified(atom: PatternNode): PatternNode {
    const char = this.peek()
    let min: number
    let max: number
    if (char === '*' || char === '+' || char === '?') {
      this.position++
      ;[min, max] = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1]
    } else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.position))
      if (!match) return atom
      this.position += match[0].length
      min = Number(match[1])
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3])
      if (min > MAX_REPEAT_COUNT || (max !== Infinity && max > MAX_REPEAT_COUNT))
        throw new UnsupportedPatternError(`repetition counts above ${MAX_REPEAT_COUNT} are not supported`)
    } else {
      return atom
    }
    if (this.peek() === '?') this.position++ // lazy: the same language
    return { type: 'repeat', body: atom, min, max }
  }

  private peek(offset = 0): string {
    return this.source[this.position + offset] ?? ''
  }
}

/** The index after the `]` closing the class opened at `start` (in unicode mode a `[` inside is a literal). */
function classEnd(source: string, start: number): number {
  let index = start + 1
  while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1
  return index + 1
}

function literal(codePoint: number): PatternNode {
  return { type: 'char', test: (candidate) => candidate === codePoint }
}

/**
 * A predicate that asks V8 whether `atom` (one character wide in unicode mode) matches a code point: anchored on a
 * one-code-point string, so it cannot backtrack. Answers are remembered: ASCII in a table, the rest in a map.
 */
function v8Predicate(atom: string): CharPredicate {
  const regexp = new RegExp(`^(?:${atom})$`, 'u')
  const ascii = new Int8Array(128)
  const other = new Map<number, boolean>()
  return (codePoint) => {
    if (codePoint < 128) {
      if (ascii[codePoint] === 0) ascii[codePoint] = regexp.test(String.fromCharCode(codePoint)) ? 1 : 2
      return ascii[codePoint] === 1
    }
    let answer = other.get(codePoint)
    if (answer === undefined) {
      answer = regexp.test(String.fromCodePoint(codePoint))
      if (other.size >= MEMO_LIMIT) other.clear()
      other.set(codePoint, answer)
    }
    return answer
  }
}
