import { silentLogger } from '@idplane/common'

import { PgliteSqlClient } from '../adapters/sql/pglite-sql-client'
import { migrateSchema } from '../adapters/sql/schema-migrations'
import { TakenEnvelopes } from './taken-envelopes'

describe('TakenEnvelopes (PGlite)', () => {
  let sql: PgliteSqlClient

  beforeAll(async () => {
    sql = await PgliteSqlClient.open()
    await migrateSchema(sql)
  })

  afterAll(() => sql.close())

  it('knows what this process took, and after a restart what the process before took', async () => {
    const first = new TakenEnvelopes(sql, silentLogger)
    await first.load()
    const digest = TakenEnvelopes.digestOf('{"protected":"a","ciphertext":"b"}')
    expect(first.has(digest)).toBe(false)
    await first.add(digest)
    await first.add(digest)
    expect(first.has(digest)).toBe(true)
    expect(first.has(TakenEnvelopes.digestOf('{"protected":"a","ciphertext":"c"}'))).toBe(false)

    const next = new TakenEnvelopes(sql, silentLogger)
    expect(next.has(digest)).toBe(false)
    await next.load()
    expect(next.has(digest)).toBe(true)
  })

  it('forgets digests past the retention, and no others', async () => {
    const envelopes = new TakenEnvelopes(sql, silentLogger)
    await envelopes.add('old')
    await envelopes.add('new')
    await sql.query(`UPDATE inbound_envelopes SET taken_at = now() - interval '25 hours' WHERE digest = 'old'`)
    expect(await envelopes.prune()).toBe(1)
    const { rows } = await sql.query<{ digest: string }>('SELECT digest FROM inbound_envelopes ORDER BY digest')
    expect(rows.map((row) => row.digest)).not.toContain('old')
    expect(rows.map((row) => row.digest)).toContain('new')
    // Not read back at a start either.
    await sql.query(`UPDATE inbound_envelopes SET taken_at = now() - interval '25 hours' WHERE digest = 'new'`)
    const next = new TakenEnvelopes(sql, silentLogger)
    await next.load()
    expect(next.has('new')).toBe(false)
  })
})
