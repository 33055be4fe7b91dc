import { PEX, Status } from '@animo-id/pex'
import { UnsupportedPatternError } from '@idplane/common/linear-regexp'

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
