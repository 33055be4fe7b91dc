import { plainToInstance } from 'class-transformer'
import { validateSync } from 'class-validator'
import { filterPatternRefusal } from './filter-patterns'
import { PresentationDefinitionDto } from './presentation-definition.dto'

function definitionWith(filter: Record<string, unknown>) {
  return plainToInstance(PresentationDefinitionDto, {
    id: 'd',
    input_descriptors: [
      { id: 'i', schema: [{ uri: 'https://example.com/s' }], constraints: { fields: [{ path: ['$.x'], filter }] } },
    ],
  })
}

describe('PE filter patterns', () => {
  it.each([
    [{ type: 'string', pattern: '(a)\\1' }, /backreferences/],
    [{ type: 'string', pattern: '(?<=a)b' }, /lookbehind/],
    [{ type: 'array', items: { type: 'string', pattern: 'a(?=b)' } }, /lookahead/],
    [{ type: 'object', patternProperties: { '(a)\\1': {} } }, /backreferences/],
    [{ not: { anyOf: [{ pattern: 'a{1001}' }] } }, /repetition counts/],
  ])('refuses %j with the reason', (filter, reason) => {
    expect(filterPatternRefusal(filter)).toMatch(reason)
    const errors = validateSync(definitionWith(filter))
    expect(JSON.stringify(errors)).toMatch(/has a pattern that cannot be run/)
  })

  it('accepts patterns of any shape the matcher runs, the issue\u2019s hostile ones included', () => {
    for (const pattern of ['^[A-Z]{2}\\d+$', '(a|a?)+$', '(a+)+$', '\\p{L}+']) {
      expect(filterPatternRefusal({ type: 'string', pattern })).toBeUndefined()
      expect(validateSync(definitionWith({ type: 'string', pattern }))).toEqual([])
    }
  })
})
