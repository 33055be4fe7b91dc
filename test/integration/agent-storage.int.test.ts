import { type AgentContext, GenericRecord, RecordDuplicateError, RecordNotFoundError } from '@credo-ts/core'

import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import type { TagQuery } from '../../agent/src/adapters/storage/query-to-sql'
import type { SqlClient } from '../../agent/src/adapters/sql/sql-client'
import { SqlStorageService } from '../../agent/src/adapters/storage/sql-storage.service'
import { matchesTagQuery } from '../../agent/src/adapters/storage/tag-match'
import { randomSchemaName, TEST_DATABASE_URL } from '../helpers/agent-in-process'

const context = (id: string) => ({ contextCorrelationId: id }) as unknown as AgentContext

function aRecord(id: string, tags: Record<string, string | boolean | string[]>): GenericRecord {
  const record = new GenericRecord({ id, content: { id } })
  record.setTags(tags as never)
  return record
}

interface Database {
  open(): Promise<SqlClient>
  drop(sql: SqlClient): Promise<void>
}

const schema = randomSchemaName('agent_storage')
/** The same cases run on the machine's PostgreSQL (a schema of their own) and on in-memory PGlite. */
const DATABASES: [string, Database][] = [
  [
    'PostgreSQL',
    {
      open: () => PgSqlClient.connect(TEST_DATABASE_URL, schema),
      drop: async (sql) => {
        await sql.query(`DROP SCHEMA "${schema}" CASCADE`)
      },
    },
  ],
  ['PGlite', { open: () => PgliteSqlClient.open(), drop: async () => undefined }],
]

describe.each(DATABASES)('SqlStorageService on %s', (_name, database) => {
  let sql: SqlClient
  let sut: SqlStorageService<GenericRecord>
  const base = context('base')

  beforeAll(async () => {
    sql = await database.open()
    await migrateSchema(sql)
    sut = new SqlStorageService(sql)
    for (const [id, tags] of Object.entries(seeded)) await sut.save(base, aRecord(id, tags))
    await sut.save(context('tenant-1'), aRecord('d', { state: 'done', role: 'issuer' }))
  })

  afterAll(async () => {
    await database.drop(sql)
    await sql.close()
  })

  const seeded: Record<string, Record<string, string | boolean | string[]>> = {
    a: { state: 'done', role: 'issuer', isDefault: true, keys: ['k1', 'k2'] },
    b: { state: 'done', role: 'holder', isDefault: false, keys: ['k2'] },
    c: { state: 'offer-sent', role: 'issuer', keys: [] },
  }
  const cases: [string, TagQuery, string[]][] = [
    ['equality', { state: 'done' }, ['a', 'b']],
    ['several tags', { state: 'done', role: 'issuer' }, ['a']],
    ['booleans', { isDefault: false }, ['b']],
    ['array containment', { keys: ['k2'] }, ['a', 'b']],
    ['array needing every value', { keys: ['k1', 'k2'] }, ['a']],
    ['$or', { $or: [{ role: 'holder' }, { state: 'offer-sent' }] }, ['b', 'c']],
    ['$and', { $and: [{ role: 'issuer' }, { keys: ['k1'] }] }, ['a']],
    ['$not', { $not: { state: 'done' } }, ['c']],
    ['$not on a missing tag', { $not: { isDefault: true } }, ['b', 'c']],
    ['nested', { role: 'issuer', $or: [{ $not: { state: 'done' } }, { keys: ['k1'] }] }, ['a', 'c']],
    ['undefined ignored', { state: undefined, role: 'holder' }, ['b']],
    ['empty query', {}, ['a', 'b', 'c']],
  ]

  it.each(cases)('finds by %s', async (_name, query, ids) => {
    const found = await sut.findByQuery(base, GenericRecord, query as never)
    expect(found.map((record) => record.id).sort()).toEqual(ids)
  })

  it.each(cases)('evaluates %s in memory (the cache invalidation) as the database does', (_name, query, ids) => {
    const matching = Object.entries(seeded).filter(([, tags]) => matchesTagQuery(query, tags))
    expect(matching.map(([id]) => id).sort()).toEqual(ids)
  })

  it('answers repeated reads from its cache and never serves a stale one after a write', async () => {
    const scope = context('cache-test')
    const ids = async (query: TagQuery) =>
      (await sut.findByQuery(scope, GenericRecord, query as never)).map((record) => record.id).sort()
    await sut.save(scope, aRecord('x', { role: 'issuer' }))
    await sut.save(scope, aRecord('y', { role: 'issuer' }))
    expect(await ids({ role: 'issuer' })).toEqual(['x', 'y'])
    expect(await ids({ role: 'holder' })).toEqual([])

    const y = await sut.getById(scope, GenericRecord, 'y')
    y.setTag('role', 'holder')
    await sut.update(scope, y)
    expect(await ids({ role: 'issuer' })).toEqual(['x'])
    expect(await ids({ role: 'holder' })).toEqual(['y'])
    expect((await sut.getById(scope, GenericRecord, 'y')).getTag('role')).toBe('holder')

    await sut.save(scope, aRecord('z', { role: 'issuer' }))
    expect(await ids({ role: 'issuer' })).toEqual(['x', 'z'])
    await sut.deleteById(scope, GenericRecord, 'x')
    expect(await ids({ role: 'issuer' })).toEqual(['z'])
    await expect(sut.getById(scope, GenericRecord, 'x')).rejects.toBeInstanceOf(RecordNotFoundError)

    // Instances handed out share nothing with the cache.
    const z = await sut.getById(scope, GenericRecord, 'z')
    z.setTag('role', 'changed-in-memory')
    z.content = { mutated: true }
    const again = await sut.getById(scope, GenericRecord, 'z')
    expect(again.getTag('role')).toBe('issuer')
    expect(again.content).toEqual({ id: 'z' })

    await sut.deleteContext('cache-test')
    expect(await ids({ role: 'issuer' })).toEqual([])
  })

  it('keeps contexts apart, round-trips tags and maps errors', async () => {
    expect((await sut.getAll(context('tenant-1'), GenericRecord)).map((record) => record.id)).toEqual(['d'])
    await expect(sut.getById(context('tenant-1'), GenericRecord, 'a')).rejects.toBeInstanceOf(RecordNotFoundError)
    await expect(sut.save(base, aRecord('a', {}))).rejects.toBeInstanceOf(RecordDuplicateError)
    const a = await sut.getById(base, GenericRecord, 'a')
    expect(a.getTags()).toMatchObject({ state: 'done', isDefault: true, keys: ['k1', 'k2'] })
    expect(
      (await sut.findByQuery(base, GenericRecord, {}, { limit: 1, offset: 1 })).map((record) => record.id),
    ).toEqual(['b'])
  })

  it('uses the GIN index for tag containment', async () => {
    await sql.query('SET enable_seqscan = off')
    const plan = await sql.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM records WHERE tags @> '{"state":"done"}'::jsonb`,
    )
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('records_tags_idx')
  })
})
