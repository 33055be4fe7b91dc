import vm from 'node:vm'

import fc from 'fast-check'
import { Ajv2020 } from 'ajv/dist/2020'

import {
  InputTooLongError,
  LINEAR_REGEXP_LIMITS,
  LinearRegExp,
  linearRegExpEngine,
  patternRefusal,
  PatternTooCostlyError,
  UnsupportedPatternError,
  withPatternWorkBudget,
} from '.'
import { cpuClock } from '../../test/helpers/cpu-clock'

/** The patterns of issue 23 that took seconds, and more, on V8's backtracking engine. */
const HOSTILE_PATTERNS = ['(a+)+$', '((a+))+$', '(a|a)+$', '(a|a?)+$', '^(a|b|ab)*c$', '(a?){30}a{30}']

function agreesWithV8(pattern: string, input: string): void {
  expect({ pattern, input, matches: new LinearRegExp(pattern).test(input) }).toEqual({
    pattern,
    input,
    matches: new RegExp(pattern, 'u').test(input),
  })
}

describe('LinearRegExp', () => {
  it.each([
    ['abc', ['abc', 'xabcx', 'ab', '']],
    ['^abc$', ['abc', 'abcd', ' abc']],
    ['^$', ['', '\n', 'a']],
    ['a$', ['a', 'a\n', 'ba']],
    ['^a|b$', ['ax', 'xb', 'xa']],
    ['colou?r', ['color', 'colour', 'colouur']],
    ['^a{2,3}$', ['a', 'aa', 'aaa', 'aaaa']],
    ['^a{2}$', ['aa', 'aaa']],
    ['^a{2,}$', ['a', 'aa', 'aaaaaa']],
    ['^(ab)*?c$', ['c', 'ababc', 'abac']],
    ['^[a-c]+$', ['abc', 'abd', '']],
    ['^[^a-c]+$', ['xyz', 'xaz', '😀']],
    ['^[]$', ['', 'a']],
    ['^[^]$', ['\n', '😀', '']],
    ['^.$', ['a', '\n', '\r', '\u2028', '😀', '\ud83d']],
    ['^\\d+$', ['123', '١٢٣', '12a']],
    ['^\\w+$', ['a_1', 'é', 'a-b']],
    ['^\\s$', [' ', '\u00a0', '\ufeff', '\u2003', 'a']],
    ['^\\S+$', ['ab', 'a b']],
    ['\\bcat\\b', ['cat', 'a cat.', 'concat', 'cats']],
    ['\\Bcat', ['concat', 'cat']],
    ['^\\p{L}+$', ['éa', 'Ωmega', 'a1']],
    ['^\\p{Script=Greek}+$', ['αβγ', 'abc']],
    ['^\\P{L}$', ['1', 'a']],
    ['^\\u00e9$', ['é', 'e']],
    ['^\\u{1F600}$', ['😀', '😁']],
    ['^\\uD83D\\uDE00$', ['😀', '\ud83d']],
    ['^\\uD83D$', ['\ud83d', '😀']],
    ['^[\\u{1F600}-\\u{1F64F}]$', ['😃', 'a']],
    ['^\\x41\\cJ\\t\\0$', ['A\n\t\0', 'A\n\t']],
    ['^\\/\\.\\*\\$\\^\\(\\)\\[\\]\\{\\}\\|\\\\\\+\\?$', ['/.*$^()[]{}|\\+?', 'x']],
    ['^[\\b]$', ['\b', 'b']],
    ['^(?:a|b)(?<name>c)$', ['ac', 'bc', 'cc']],
    ['😀+', ['😀😀', 'x']],
    ['^(a|ab)(c|bcd)(d*)$', ['abcd', 'abcdd', 'ac']],
    ['(|a)+b', ['b', 'aab']],
    ['(a*)*b', ['aaab', 'aaa']],
    ['^(\\w+\\s?)*$', ['hello world', 'hello  world']],
  ])('%s answers as V8 does', (pattern, inputs) => {
    for (const input of inputs) agreesWithV8(pattern, input)
  })

  it('starts matches only at code point boundaries, as unicode mode does', () => {
    agreesWithV8('\\uDE00', '😀')
    agreesWithV8('^.\\uDE00', '😀')
    agreesWithV8('\\B', '😀')
    // ECMA-262 matches on code points: no position lies inside the pair, so `\B` has nowhere to match (V8 says true).
    expect(new LinearRegExp('\\B').test('b😀1')).toBe(false)
  })

  it.each([
    ['(a)\\1', /backreferences/],
    ['(?<x>a)\\k<x>', /backreferences/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
    ['a{1001}', /repetition counts above 1000/],
    ['a{1,1001}', /repetition counts above 1000/],
    ['(a{100}){100}', /too complex/],
    ['(?i:a)', /inline modifiers/],
  ])('refuses %s', (pattern, reason) => {
    expect(() => new LinearRegExp(pattern)).toThrow(UnsupportedPatternError)
    expect(patternRefusal(pattern)).toMatch(reason)
  })

  it('refuses a pattern longer than the limit', () => {
    expect(patternRefusal('a'.repeat(LINEAR_REGEXP_LIMITS.patternLength + 1))).toMatch(/longer than/)
  })

  it('refuses flags other than u, and reports syntax errors as V8 does', () => {
    expect(() => new LinearRegExp('a', 'g')).toThrow(UnsupportedPatternError)
    expect(() => new LinearRegExp('(a', 'u')).toThrow(SyntaxError)
    expect(() => new LinearRegExp('a{,2}', 'u')).toThrow(SyntaxError)
    expect(patternRefusal('[')).toBe('is not a valid regular expression')
    expect(patternRefusal('^[a-z]{1,20}$')).toBeUndefined()
  })

  it.each([
    // pattern, matches `a…a!`, matches `abab…!` (V8 gives the same answers on short forms of both, below)
    ['(a+)+$', false, false],
    ['((a+))+$', false, false],
    ['(a|a)+$', false, false],
    ['(a|a?)+$', true, true],
    ['^(a|b|ab)*c$', false, false],
    ['(a?){30}a{30}', true, false],
  ])('answers %s on 10,000-character hostile values in well under a second', (pattern, onRun, onPairs) => {
    const regexp = new LinearRegExp(pattern)
    for (const [input, expected] of [
      ['a'.repeat(9_999) + '!', onRun],
      ['ab'.repeat(4_999) + '!', onPairs],
    ] as const) {
      const cpuMs = cpuClock()
      expect(regexp.test(input)).toBe(expected)
      expect(cpuMs()).toBeLessThan(500)
    }
  })

  it('gives the answer V8 gives on short hostile values, where V8 still finishes', () => {
    for (const pattern of HOSTILE_PATTERNS) {
      for (const length of [0, 1, 5, 18]) {
        agreesWithV8(pattern, 'a'.repeat(length) + '!')
        agreesWithV8(pattern, 'ab'.repeat(length) + '!')
      }
      agreesWithV8(pattern, 'a'.repeat(40))
    }
  })

  it('refuses a value longer than the input limit', () => {
    const regexp = new LinearRegExp('^a')
    expect(() => regexp.test('a'.repeat(LINEAR_REGEXP_LIMITS.inputLength + 1))).toThrow(InputTooLongError)
    expect(regexp.test('a'.repeat(LINEAR_REGEXP_LIMITS.inputLength))).toBe(true)
  })

  it('refuses a test that would keep too many steps alive, the same way each time', () => {
    const regexp = new LinearRegExp('([\\s\\S]{0,40}){0,40}y')
    const input = 'x'.repeat(LINEAR_REGEXP_LIMITS.inputLength)
    for (let attempt = 0; attempt < 3; attempt++) {
      const cpuMs = cpuClock()
      expect(() => regexp.test(input)).toThrow(PatternTooCostlyError)
      expect(cpuMs()).toBeLessThan(1_000)
    }
    expect(regexp.test('x'.repeat(200) + 'y')).toBe(true)
  })

  it('shares one work budget among the tests of one document', () => {
    const regexp = new LinearRegExp('[\\s\\S]{0,100}y')
    const value = 'x'.repeat(6_000) // about 600 000 steps: one passes alone, four do not fit in 2 000 000
    expect(regexp.test(value)).toBe(false)
    expect(() =>
      withPatternWorkBudget(LINEAR_REGEXP_LIMITS.documentWork, () => [1, 2, 3, 4].map(() => regexp.test(value))),
    ).toThrow(PatternTooCostlyError)
    expect(
      withPatternWorkBudget(LINEAR_REGEXP_LIMITS.documentWork, () => [1, 2, 3].map(() => regexp.test(value))),
    ).toEqual([false, false, false])
    // Outside a budget only the per-test limit applies.
    expect([1, 2, 3, 4].map(() => regexp.test(value))).toEqual([false, false, false, false])
  })

  it('answers as V8 does for generated patterns and inputs', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      '.',
      '[ab]',
      '[^a]',
      '\\w',
      '\\d',
      '\\s',
      '\\W',
      'é',
      '😀',
      '\\u{1F600}',
      '[\\s\\S]',
    )
    const assertion = fc.constantFrom('^', '$', '\\b', '\\B')
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??', '{0,2}?')
    const { pattern } = fc.letrec<{ pattern: string; term: string }>((tie) => ({
      pattern: fc.oneof(
        { depthSize: 'small' },
        fc.array(tie('term'), { maxLength: 4 }).map((terms) => terms.join('')),
        fc.tuple(tie('pattern'), tie('pattern')).map(([left, right]) => `${left}|${right}`),
      ),
      term: fc.oneof(
        { depthSize: 'small' },
        fc.tuple(atom, quantifier).map(([a, q]) => a + q),
        assertion,
        fc
          .tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('pattern'), quantifier)
          .map(([open, inner, q]) => `${open.replace('<g>', `<g${inner.length}>`)}${inner})${q}`),
      ),
    }))
    const input = fc
      .array(fc.constantFrom('a', 'b', '1', ' ', '_', '\n', 'é', '😀', '\ud83d', '-'), { maxLength: 12 })
      .map((chars) => chars.join(''))
    // V8 backtracks, so on some generated patterns it runs for minutes (one CI run spent 56 minutes here, and V8
    // then answered false where the standard, and V8 itself on every shorter prefix, says true). Such a case has no
    // oracle: V8 runs in a context with a time limit and the case is left out; the count of left-out cases is bounded
    // so that the property cannot pass by leaving everything out.
    const v8 = vm.createContext({ source: '', text: '' })
    const v8Test = new vm.Script('new RegExp(source, "u").test(text)')
    const oracleMs = 250
    let compared = 0
    let leftOut = 0
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 5 }), (source, inputs) => {
        try {
          new RegExp(source, 'u')
        } catch {
          return // duplicate group names and the like: not a pattern
        }
        const linear = new LinearRegExp(source)
        for (const text of inputs) {
          // V8 also tries `\B` between the two halves of a surrogate pair (/\B/u.exec('b😀1').index is 2); the
          // standard matches on code points, and so do we.
          if (source.includes('\\B') && /[\u{10000}-\u{10FFFF}]/u.test(text)) continue
          Object.assign(v8, { source, text })
          let native: boolean
          try {
            native = v8Test.runInContext(v8, { timeout: oracleMs }) as boolean
          } catch (error) {
            if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error
            leftOut++
            continue
          }
          compared++
          expect([source, text, linear.test(text)]).toEqual([source, text, native])
        }
      }),
      { numRuns: Number(process.env.LINEAR_REGEXP_RUNS ?? 2000) },
    )
    expect(leftOut).toBeLessThan(compared / 100)
  })

  it('answers as the standard does where V8 backtracks for minutes', () => {
    // Found by the property above: every iteration of the lazy group that consumes text fails at `^`, so V8 tries
    // them all (ten times longer per character) before the empty alternatives; the standard's answer is true.
    const source = '((a)|(|(.{0,2}?(\\s)*)||){2})+?^'
    const text = 'aé \n\ud83débab'
    for (let length = 4; length <= 7; length++) agreesWithV8(source, text.slice(0, length))
    const cpuMs = cpuClock()
    expect(new LinearRegExp(source).test(text)).toBe(true)
    expect(new LinearRegExp(source).test(text.repeat(100))).toBe(true)
    expect(cpuMs()).toBeLessThan(500)
  })
})

describe('linearRegExpEngine in ajv', () => {
  const ajv = new Ajv2020({ strict: false, code: { regExp: linearRegExpEngine } })

  it('checks pattern and patternProperties with the linear matcher', () => {
    const validate = ajv.compile({
      type: 'object',
      properties: { name: { type: 'string', pattern: '(a|a?)+$' } },
      patternProperties: { '^x-[a-z]+$': { type: 'number' } },
    })
    const cpuMs = cpuClock()
    expect(validate({ name: 'a'.repeat(9_999) + '!' })).toBe(true) // `$` after the `!` matches the empty alternative
    expect(validate({ name: 'ok', 'x-abc': 'not a number' })).toBe(false)
    expect(validate({ name: 'ok', 'x-abc': 1 })).toBe(true)
    expect(cpuMs()).toBeLessThan(500)
  })

  it('keeps different patterns apart (ajv shares compiled patterns by their text)', () => {
    const validate = ajv.compile({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^a$' }, b: { type: 'string', pattern: '^b$' } },
    })
    expect(validate({ a: 'a', b: 'b' })).toBe(true)
    expect(validate({ a: 'b', b: 'a' })).toBe(false)
  })

  it('fails compiling a schema whose pattern the matcher refuses', () => {
    expect(() => ajv.compile({ type: 'string', pattern: '(a)\\1' })).toThrow(UnsupportedPatternError)
  })
})
