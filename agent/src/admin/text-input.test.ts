import { InvalidInputError } from '@idplane/common'

import { findLoneSurrogate, rejectLoneSurrogates } from './text-input'

describe('findLoneSurrogate', () => {
  it.each([
    ['a lone high surrogate', { label: 'a\ud800b' }, 'label'],
    ['a lone low surrogate', { label: '\udc00' }, 'label'],
    ['a high surrogate at the end', { label: 'ab\ud83d' }, 'label'],
    ['a nested field', { messages: [{ content: 'ok' }, { content: 'x\udfffy' }] }, 'messages[1].content'],
    ['a key', { invitation: { ['k\ud800']: 1 } }, 'invitation (a key)'],
    ['a bare string body', '\ud800', 'body'],
  ])('finds %s', (_name, value, field) => {
    expect(findLoneSurrogate(value)).toBe(field)
  })

  it.each([
    ['a surrogate pair (emoji)', { label: 'Café 😀 日本' }],
    ['no text at all', { count: 3, flag: true, none: null }],
    ['an empty object', {}],
  ])('accepts %s', (_name, value) => {
    expect(findLoneSurrogate(value)).toBeUndefined()
  })
})

describe('rejectLoneSurrogates', () => {
  it('passes a 400 naming the field to the error handler', () => {
    const next = jest.fn()
    rejectLoneSurrogates({ body: { label: 'a\ud800' } } as never, {} as never, next)
    const error = next.mock.calls[0]?.[0] as InvalidInputError
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error.fields).toEqual([{ field: 'label', message: 'must be valid Unicode text (no lone surrogate)' }])
  })

  it('lets a well-formed or absent body through', () => {
    const next = jest.fn()
    rejectLoneSurrogates({ body: { label: 'fine' } } as never, {} as never, next)
    rejectLoneSurrogates({ body: undefined } as never, {} as never, next)
    expect(next.mock.calls).toEqual([[], []])
  })
})
