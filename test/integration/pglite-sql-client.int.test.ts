import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'

/** Group commit of the embedded database (agent/src/adapters/sql/pglite-sql-client.ts). */
describe('PgliteSqlClient', () => {
  let sql: PgliteSqlClient

  beforeEach(async () => {
    sql = await PgliteSqlClient.open()
    await sql.query('CREATE TABLE items (id text PRIMARY KEY, xid bigint NOT NULL)')
  })

  afterEach(async () => {
    await sql.close()
  })

  const insert = (id: string) =>
    sql.query('INSERT INTO items (id, xid) VALUES ($1, txid_current())', [id]).then((result) => result.rowCount)

  it('commits writes issued together in one transaction, and each caller gets its own result', async () => {
    const counts = await Promise.all(['a', 'b', 'c'].map(insert))
    expect(counts).toEqual([1, 1, 1])
    const { rows } = await sql.query<{ transactions: number; items: number }>(
      'SELECT count(DISTINCT xid)::int AS transactions, count(*)::int AS items FROM items',
    )
    expect(rows[0]).toEqual({ transactions: 1, items: 3 })
    // Written apart, they commit apart.
    await insert('d')
    await insert('e')
    const after = await sql.query<{ transactions: number }>(
      'SELECT count(DISTINCT xid)::int AS transactions FROM items',
    )
    expect(after.rows[0].transactions).toBe(3)
  })

  it('gives a failing write its own error and still commits the others of its group', async () => {
    await insert('taken')
    const outcomes = await Promise.allSettled([insert('x'), insert('taken'), insert('y')])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' })
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM items ORDER BY id')
    expect(rows.map((row) => row.id)).toEqual(['taken', 'x', 'y'])
  })

  it('answers reads at once and lets every read after a settled write see it', async () => {
    const written = insert('seen')
    expect((await sql.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    await written
    expect((await sql.query('SELECT id FROM items')).rows).toEqual([{ id: 'seen' }])
  })

  it('commits gathered writes before it closes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-close-'))
    try {
      const first = await PgliteSqlClient.open(dir)
      await first.query('CREATE TABLE items (id text PRIMARY KEY)')
      const pending = first.query('INSERT INTO items (id) VALUES ($1)', ['last'])
      await first.close()
      await pending
      const reopened = await PgliteSqlClient.open(dir)
      expect((await reopened.query('SELECT id FROM items')).rows).toEqual([{ id: 'last' }])
      await reopened.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
