import { redact } from './logger'

/** The fields pg's DatabaseError carries, with the values PostgreSQL quotes in its message and detail. */
function aPgError(): Error {
  return Object.assign(new Error('insert into "t" ("a") values (\'sk_live_x\') - duplicate key value'), {
    severity: 'ERROR',
    code: '23505',
    detail: 'Key (a)=(sk_live_x) already exists.',
    constraint: 't_a_unique',
    table: 't',
    routine: '_bt_check_unique',
  })
}

describe('redact of database errors', () => {
  it('keeps the class, code, constraint and table of a database error, and nothing it quotes', () => {
    const logged = JSON.stringify(redact({ error: aPgError() }))
    expect(JSON.parse(logged)).toEqual({
      error: { name: 'Error', code: '23505', constraint: 't_a_unique', table: 't' },
    })
    expect(logged).not.toContain('sk_live_x')
  })

  it('describes a database error that is the cause of another', () => {
    const wrapped = new Error('Saving failed', { cause: aPgError() })
    expect(JSON.stringify(redact(wrapped))).not.toContain('sk_live_x')
  })

  it('keeps the message of other errors, including ones with a non-SQLSTATE code', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    expect(redact(error)).toEqual({ name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:5432' })
  })
})
