import { PEX, Status } from '@animo-id/pex'
import { UnsupportedPatternError } from '@idplane/common/linear-regexp'
import { Ajv } from 'ajv'

import { installLinearFilterEvaluation, passes } from './linear-filter-evaluation'
import { cpuClock } from '../../../../test/helpers/cpu-clock'

/** A signed-looking JSON-LD credential whose subject's `code` is `value` (PEX reads the JSON, not the proof). */
function credential(value: string) {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1'],
    type: ['VerifiableCredential'],
    issuer: 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH',
    issuanceDate: '2024-01-01T00:00:00Z',
    credentialSubject: { id: 'did:key:z6MkHolder', code: value },
    proof: {
      type: 'Ed25519Signature2018',
      created: '2024-01-01T00:00:00Z',
      proofPurpose: 'assertionMethod',
      verificationMethod: 'did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH#key',
      jws: 'x',
    },
  }
}

function definition(pattern: string) {
  return {
    id: 'hostile',
    input_descriptors: [
      {
        id: 'code',
        constraints: { fields: [{ path: ['$.credentialSubject.code'], filter: { type: 'string', pattern } }] },
      },
    ],
  }
}

describe('PEX filter evaluation with the linear-time matcher', () => {
  beforeAll(() => installLinearFilterEvaluation())

  it.each([
    ['(a|a?)+$', true],
    ['(a+)+$', false],
    ['((a+))+$', false],
    ['^(a|b|ab)*c$', false],
    ['(a?){30}a{30}', true],
  ])('evaluates %s against a 10,000-character hostile value in well under a second', (pattern, matches) => {
    const cpuMs = cpuClock()
    const result = new PEX().evaluateCredentials(definition(pattern), [credential('a'.repeat(9_999) + '!')])
    expect(cpuMs()).toBeLessThan(1_000)
    expect(result.areRequiredCredentialsPresent).toBe(matches ? Status.INFO : Status.ERROR)
  })

  it('keeps the answers of a plain filter', () => {
    expect(
      new PEX().evaluateCredentials(definition('^A\\d{3}$'), [credential('A123')]).areRequiredCredentialsPresent,
    ).toBe(Status.INFO)
    expect(
      new PEX().evaluateCredentials(definition('^A\\d{3}$'), [credential('A12')]).areRequiredCredentialsPresent,
    ).toBe(Status.ERROR)
  })

  it('refuses a filter whose pattern needs backtracking, with the reason', () => {
    expect(() => passes({ type: 'string', pattern: '(a)\\1' }, 'aa')).toThrow(UnsupportedPatternError)
    expect(() => new PEX().evaluateCredentials(definition('(?<=a)b'), [credential('ab')])).toThrow(/lookbehind/)
  })

  it('counts a value too long for its pattern as not satisfying the filter', () => {
    expect(passes({ type: 'string', pattern: 'a' }, 'a'.repeat(10_001))).toBe(false)
    expect(passes({ type: 'string', pattern: 'a' }, 'a'.repeat(10_000))).toBe(true)
  })

  it('compares `format: date` filters on the date part, as PEX does', () => {
    const dated = {
      id: 'dated',
      input_descriptors: [
        {
          id: 'issued',
          constraints: {
            fields: [
              { path: ['$.issuanceDate'], filter: { type: 'string', format: 'date', formatMinimum: '2023-06-01' } },
            ],
          },
        },
      ],
    }
    expect(new PEX().evaluateCredentials(dated, [credential('x')]).areRequiredCredentialsPresent).toBe(Status.INFO)
  })
})

describe('filters of type, const and enum answered without a validator', () => {
  const FILTERS: object[] = [
    { type: 'string' },
    { type: 'string', const: 'Holder 1' },
    { const: 'Holder 1' },
    { const: 30 },
    { const: true },
    { const: null },
    { type: 'integer' },
    { type: 'number', enum: [1, 2.5, '3'] },
    { type: ['string', 'null'] },
    { enum: ['a', 'b', null, false] },
    { type: 'object' },
    { type: 'array', $comment: 'annotations change nothing', title: 't', description: 'd' },
    { type: 'boolean', const: false },
  ]
  const VALUES: unknown[] = [
    'Holder 1',
    'holder 1',
    '',
    30,
    30.5,
    2.5,
    '30',
    true,
    false,
    null,
    [],
    ['a'],
    {},
    { a: 1 },
  ]
  // A validator of its own with the agent's options, compiled before anything is counted.
  const reference = new Ajv({ allowUnionTypes: true, strict: false })
  const expected = FILTERS.map((filter) => reference.compile(filter))

  afterEach(() => jest.restoreAllMocks())

  it('gives what a compiled validator gives, for every value, and compiles nothing', () => {
    const compile = jest.spyOn(Ajv.prototype, 'compile')
    FILTERS.forEach((filter, index) => {
      for (const value of VALUES) {
        expect({ filter, value, passes: passes(filter, value) }).toEqual({
          filter,
          value,
          passes: expected[index](value),
        })
      }
    })
    expect(compile).not.toHaveBeenCalled()
  })

  it('compiles a filter with anything else, an object as const, or an empty type or enum list', () => {
    const compile = jest.spyOn(Ajv.prototype, 'compile')
    expect(passes({ type: 'string', minLength: 2 }, 'ab')).toBe(true)
    expect(passes({ const: { a: 1 } }, { a: 1 })).toBe(true)
    expect(passes({ type: 'string', format: 'email' }, 'not an address')).toBe(false)
    expect(compile).toHaveBeenCalledTimes(3)
    for (const filter of [{ type: [] }, { enum: [] }]) {
      try {
        passes(filter, 'x')
      } catch {
        // Whatever the validator makes of it; only that it was asked matters here.
      }
    }
    expect(compile).toHaveBeenCalledTimes(5)
  })
})
