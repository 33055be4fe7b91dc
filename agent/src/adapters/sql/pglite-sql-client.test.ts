import { protocol } from '@electric-sql/pglite'

import { bindMessage, DESCRIBE_PORTAL, EXECUTE_PORTAL } from './pglite-sql-client'

/** The messages the embedded database's writes are sent with, byte for byte as PGlite's own serializer writes them. */
describe('PgliteSqlClient messages', () => {
  const { serialize } = protocol

  it.each([
    ['no parameters', []],
    ['text and nulls', ['ctx', null, '', 'DidCommMessageRecord']],
    ['multi-byte text', ['é', '名前', '🙂 emoji', '{"a":"ü"}']],
    ['a long JSON value', [JSON.stringify({ attach: 'x'.repeat(70_000), n: [1, 2, 3] })]],
  ] as const)('writes Bind with %s as PGlite does', (_name, values) => {
    const expected = serialize.bind({ statement: 'idplane_w12', values: [...values] })
    expect(Buffer.from(bindMessage('idplane_w12', values))).toEqual(Buffer.from(expected))
  })

  it('describes and executes the unnamed portal as PGlite does', () => {
    expect(Buffer.from(DESCRIBE_PORTAL)).toEqual(Buffer.from(serialize.describe({ type: 'P' })))
    expect(Buffer.from(EXECUTE_PORTAL)).toEqual(Buffer.from(serialize.execute({})))
  })
})
