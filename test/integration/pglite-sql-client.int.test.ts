import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'

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

  it('runs each write text as one named statement, parsed once', async () => {
    await Promise.all(['n1', 'n2'].map(insert))
    await insert('n3')
    const { rows } = await sql.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'idplane_w%' ORDER BY name",
    )
    expect(rows).toEqual([{ statement: 'INSERT INTO items (id, xid) VALUES ($1, txid_current())' }])
  })

  it('runs each read text as one named statement, parsed once, with the rows and types query gives', async () => {
    // (and a SELECT's row count as the pg client gives it: the rows)
    await sql.query(
      'CREATE TABLE docs (id uuid PRIMARY KEY, tags jsonb NOT NULL, at timestamptz NOT NULL, n bigint NOT NULL)',
    )
    const ids = ['6f1c2a8e-3b4d-4c5e-8f9a-0b1c2d3e4f5a', '7f1c2a8e-3b4d-4c5e-8f9a-0b1c2d3e4f5a']
    const at = new Date('2026-12-03T08:00:00.123Z')
    await Promise.all(
      ids.map((id, index) =>
        sql.query('INSERT INTO docs (id, tags, at, n) VALUES ($1, $2, $3, $4)', [id, { role: `r${index}` }, at, 7]),
      ),
    )
    const text = 'SELECT id, tags, at, n FROM docs WHERE tags @> $1 AND id = ANY($2::uuid[]) ORDER BY id'
    const first = await sql.query(text, [{ role: 'r0' }, ids])
    const second = await sql.query(text, [{ role: 'r1' }, ids])
    const none = await sql.query(text, [{ role: 'r2' }, ids])
    expect(first).toEqual({ rows: [{ id: ids[0], tags: { role: 'r0' }, at, n: 7 }], rowCount: 1 })
    expect(second.rows).toEqual([{ id: ids[1], tags: { role: 'r1' }, at, n: 7 }])
    expect(none).toEqual({ rows: [], rowCount: 0 })
    const { rows } = await sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement = $1',
      [text],
    )
    expect(rows).toEqual([{ count: 1 }])
  })

  it("rejects a read that fails with PostgreSQL's error, and answers one whose table changed after it was named", async () => {
    await expect(sql.query('SELECT * FROM nowhere WHERE id = $1', ['x'])).rejects.toMatchObject({ code: '42P01' })
    await insert('r')
    const text = 'SELECT * FROM items WHERE id = $1'
    expect((await sql.query(text, ['r'])).rows).toEqual([{ id: 'r', xid: expect.any(Number) }])
    // The named statement's result type is stale now; PostgreSQL refuses to run it, and the read goes by text.
    await sql.query('ALTER TABLE items ADD COLUMN note text')
    expect((await sql.query(text, ['r'])).rows).toEqual([{ id: 'r', xid: expect.any(Number), note: null }])
  })

  it("gives each write of a group its own row count and rows, as PGlite's query would", async () => {
    await Promise.all(['a', 'b', 'c'].map(insert))
    const [updated, inserted, returned, deleted] = await Promise.all([
      sql.query("UPDATE items SET xid = 0 WHERE id IN ('a', 'b')"),
      sql.query('INSERT INTO items (id, xid) VALUES ($1, 7)', ['d']),
      sql.query<{ id: string; xid: string }>('UPDATE items SET xid = $2 WHERE id = $1 RETURNING id, xid', ['c', 9]),
      sql.query('DELETE FROM items WHERE id = $1', ['nothing']),
    ])
    expect([updated.rowCount, inserted.rowCount, returned.rowCount, deleted.rowCount]).toEqual([2, 1, 1, 0])
    expect(returned.rows).toEqual([{ id: 'c', xid: 9 }])
    // The same statements through PGlite's own query, one by one, give the same counts.
    expect((await sql.query("UPDATE items SET xid = 1 WHERE id IN ('a', 'b')")).rowCount).toBe(2)
  })

  it('sends parameters as PGlite serializes them for their types', async () => {
    await sql.query(
      `CREATE TABLE typed (id uuid PRIMARY KEY, doc jsonb, at timestamptz, tags text[], n bigint, flag boolean,
        xid bigint NOT NULL DEFAULT txid_current())`,
    )
    const ids = ['6f1c2a8e-3b4d-4c5e-8f9a-0b1c2d3e4f5a', '7f1c2a8e-3b4d-4c5e-8f9a-0b1c2d3e4f5a']
    const at = new Date('2026-12-03T08:00:00.123Z')
    const doc = { a: [1, 'two', { three: null }], 'quote"': "it's" }
    const write = (id: string) =>
      sql.query<{ doc: unknown; at: Date; tags: string[]; n: number; flag: boolean }>(
        'INSERT INTO typed (id, doc, at, tags, n, flag) VALUES ($1, $2, $3, $4, $5, $6) RETURNING doc, at, tags, n, flag',
        [id, doc, at, ['x', 'y "z"', 'a,b'], 12345678901, true],
      )
    const [written] = await Promise.all([
      write(ids[0]),
      write(ids[1]),
      sql.query('DELETE FROM typed WHERE id = ANY($1::uuid[])', [['00000000-0000-4000-8000-000000000000']]),
    ])
    const expected = { doc, at, tags: ['x', 'y "z"', 'a,b'], n: 12345678901, flag: true }
    expect(written.rows).toEqual([expected])
    const { rows } = await sql.query('SELECT doc, at, tags, n, flag FROM typed WHERE id = ANY($1::uuid[])', [ids])
    expect(rows).toEqual([expected, expected])
    // One transaction: the group ran as sent, not again one by one after a failure (which would hide a bad value).
    const { rows: transactions } = await sql.query('SELECT count(DISTINCT xid)::int AS count FROM typed')
    expect(transactions).toEqual([{ count: 1 }])
  })

  it("rejects a write whose text does not parse with PostgreSQL's error, and commits the rest of its group", async () => {
    const outcomes = await Promise.allSettled([
      insert('p'),
      sql.query('INSERT INTO nowhere VALUES ($1)', [1]),
      insert('q'),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '42P01' })
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM items ORDER BY id')
    expect(rows.map((row) => row.id)).toEqual(['p', 'q'])
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

/** PGlite runs no autovacuum; the client vacuums and analyzes on autovacuum's rule (pglite-sql-client.ts). */
describe('PgliteSqlClient maintenance', () => {
  const runs: { seconds: number; error?: unknown }[] = []
  let waiting: (() => void) | undefined
  const onRun = (run: { seconds: number; error?: unknown }) => {
    runs.push(run)
    waiting?.()
  }
  /** A run starts after its write's caller has its result; this waits for it to end. */
  const runEnded = () =>
    new Promise<void>((resolve) => {
      waiting = resolve
    })
  const reltuples = async (sql: PgliteSqlClient) =>
    (await sql.query<{ tuples: number }>(`SELECT reltuples::float8 AS tuples FROM pg_class WHERE relname = 'items'`))
      .rows[0].tuples
  const statistics = async (sql: PgliteSqlClient) =>
    (await sql.query<{ columns: number }>(`SELECT count(*)::int AS columns FROM pg_stats WHERE tablename = 'items'`))
      .rows[0].columns

  beforeEach(() => {
    runs.length = 0
  })

  it('vacuums and analyzes its tables once the writes pass a base plus a share of the rows', async () => {
    const sql = await PgliteSqlClient.open(undefined, { maintenance: { baseWrites: 10, rowsFraction: 0.5, onRun } })
    try {
      await sql.query('CREATE TABLE items (id text PRIMARY KEY, n int NOT NULL)')
      for (let index = 0; index < 9; index++) await sql.query('INSERT INTO items VALUES ($1, 0)', [`i${index}`])
      expect(runs).toHaveLength(0)
      expect(await reltuples(sql)).toBe(-1) // never vacuumed nor analyzed
      const ended = runEnded()
      await sql.query('INSERT INTO items VALUES ($1, 0)', ['i9'])
      await ended
      expect(runs).toHaveLength(1)
      expect(runs[0].error).toBeUndefined()
      expect(await reltuples(sql)).toBe(10)
      expect(await statistics(sql)).toBe(2)
      // The next run after 10 + 0.5 × 10 writes.
      for (let index = 0; index < 14; index++) await sql.query("UPDATE items SET n = n + 1 WHERE id = 'i0'")
      expect(runs).toHaveLength(1)
      const next = runEnded()
      await sql.query("UPDATE items SET n = n + 1 WHERE id = 'i0'")
      await next
      expect(runs).toHaveLength(2)
    } finally {
      await sql.close()
    }
  })

  it('runs at the open of an existing database on disk, so one written before has statistics, not of a new one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-maintenance-'))
    try {
      const first = await PgliteSqlClient.open(dir, { maintenance: { baseWrites: 1000, onRun } })
      expect(runs).toHaveLength(0) // a new database: nothing to vacuum yet
      await first.query('CREATE TABLE items (id text PRIMARY KEY, n int NOT NULL)')
      await Promise.all(['a', 'b', 'c'].map((id) => first.query('INSERT INTO items VALUES ($1, 0)', [id])))
      expect(await reltuples(first)).toBe(-1)
      await first.close()
      const reopened = await PgliteSqlClient.open(dir, { maintenance: { baseWrites: 1000, onRun } })
      expect(runs).toHaveLength(1)
      expect(await reltuples(reopened)).toBe(3)
      await reopened.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("updates a record by its key through the key's index, whatever the statistics", async () => {
    const sql = await PgliteSqlClient.open(undefined, { maintenance: { baseWrites: 1_000_000, onRun } })
    try {
      // A database from before kept the (context, type, seq) index, which the planner took without statistics.
      await sql.query(`CREATE TABLE records (context_id text NOT NULL, type text NOT NULL, id text NOT NULL,
        value jsonb NOT NULL, tags jsonb NOT NULL DEFAULT '{}'::jsonb, seq bigserial, PRIMARY KEY (context_id, type, id))`)
      await sql.query('CREATE INDEX records_context_type_seq_idx ON records (context_id, type, seq)')
      await sql.query(`INSERT INTO records (context_id, type, id, value)
        SELECT 'base', 'CredentialRecord', g::text, '{}' FROM generate_series(1, 2000) g`)
      await migrateSchema(sql)
      const plan = await sql.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN UPDATE records SET value = '{}' WHERE context_id = 'base' AND type = 'CredentialRecord' AND id = '7'`,
      )
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('records_pkey')
      expect(runs).toHaveLength(0)
    } finally {
      await sql.close()
    }
  })
})
