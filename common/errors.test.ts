import { InvalidInputError, NotFoundError, IdplaneError, EnvReader, redact } from './index'

describe('errors', () => {
  it('names subclasses after the class and keeps the cause', () => {
    const cause = new Error('db down')
    const error = new NotFoundError('Schema not found', { cause })
    expect(error).toBeInstanceOf(IdplaneError)
    expect(error.name).toBe('NotFoundError')
    expect(error.cause).toBe(cause)
  })

  it('carries field errors on invalid input', () => {
    const error = new InvalidInputError('Invalid body', [{ field: 'name', message: 'too short' }])
    expect(error.fields).toEqual([{ field: 'name', message: 'too short' }])
  })
})

describe('redact', () => {
  it('hides secret-bearing keys at any depth', () => {
    expect(redact({ user: 'a', nested: { password: 'p', apiKey: 'k', list: [{ token: 't' }] } })).toEqual({
      user: 'a',
      nested: { password: '[redacted]', apiKey: '[redacted]', list: [{ token: '[redacted]' }] },
    })
  })
})

describe('EnvReader', () => {
  it('reports every bad variable by name without its value', () => {
    const env = new EnvReader({ PORT: 'abc', FLAG: 'maybe', DB: 'not a url-secretvalue' })
    env.int('PORT', 5000)
    env.bool('FLAG', false)
    env.url('DB', ['postgres'])
    expect(() => env.assertValid('api')).toThrow(
      /PORT: must be a whole number\n {2}FLAG: must be true or false\n {2}DB:/,
    )
    try {
      env.assertValid('api')
    } catch (error) {
      expect(String(error)).not.toContain('secretvalue')
    }
  })

  it('applies defaults when variables are unset', () => {
    const env = new EnvReader({})
    expect(env.int('PORT', 5000)).toBe(5000)
    expect(env.string('HOST', '0.0.0.0')).toBe('0.0.0.0')
    expect(() => env.assertValid('api')).not.toThrow()
  })
})
