import { ConnectionException, UniqueConstraintViolationException } from '@mikro-orm/core'
import { toErrorBody } from '../http/error-handler'
import { isDatabaseUnavailable } from './database-unavailable'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'an admin shutdown (pg_ctl stop -m fast)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['a server that cannot take connections yet', withCode('the database system is starting up', '57P03')],
    ['a broken connection', withCode('server closed the connection unexpectedly', '08006')],
    ['a connection ended by the server', new Error('Connection terminated unexpectedly')],
    ['the ORM wrapping one', new ConnectionException(withCode('connect ECONNREFUSED', 'ECONNREFUSED'))],
    ['one deeper in the cause chain', new Error('Could not read', { cause: withCode('x', '57P01') })],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it.each([
    ['a unique violation', withCode('duplicate key value', '23505')],
    ['a syntax error', withCode('syntax error at or near', '42601')],
    ['a plain error', new Error('boom')],
    ['no error at all', 'text'],
  ])('leaves %s alone', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
  })
})

describe('the API answer while the database is away', () => {
  it('is 503 with Retry-After, and a query the database refused keeps its own status', () => {
    const away = toErrorBody(withCode('terminating connection due to administrator command', '57P01'))
    expect(away.body.statusCode).toBe(503)
    expect(away.headers['Retry-After']).toBe('5')
    expect(toErrorBody(new UniqueConstraintViolationException(withCode('duplicate', '23505'))).body.statusCode).toBe(
      409,
    )
  })
})
