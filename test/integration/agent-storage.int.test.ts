import { type AgentContext, GenericRecord, RecordDuplicateError, RecordNotFoundError } from '@credo-ts/core'

import { PgSqlClient } from '../../agent/src/adapters/sql/pg-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import type { TagQuery } from '../../agent/src/adapters/storage/query-to-sql'
import { SqlStorageService } from '../../agent/src/adapters/storage/sql-storage.service'
import { randomSchemaName, TEST_DATABASE_URL } from '../helpers/agent-in-process'

const context = (id: string) => ({ contextCorrelationId: id }) as unknown as AgentContext

function aRecord(id: string, tags: Record<string, string | boolean | string[]>): GenericRecord {
  const record = new GenericRecord({ id, content: { id } })
  record.setTags(tags as never)
  return record
}

describe('SqlStorageService on PostgreSQL', () => {
  const schema = randomSchemaName('agent_storage')
  let sql: PgSqlClient
  let sut: SqlStorageService<GenericRecord>
  const base = context('base')

  beforeAll(async () => {
    sql = await PgSqlClient.connect(TEST_DATABASE_URL, schema)
    await migrateSchema(sql)
    sut = new SqlStorageService(sql)
    await sut.save(base, aRecord('a', { state: 'done', role: 'issuer', isDefault: true, keys: ['k1', 'k2'] }))
    await sut.save(base, aRecord('b', { state: 'done', role: 'holder', isDefault: false, keys: ['k2'] }))
    await sut.save(base, aRecord('c', { state: 'offer-sent', role: 'issuer', keys: [] }))
    await sut.save(context('tenant-1'), aRecord('d', { state: 'done', role: 'issuer' }))
  })

  afterAll(async () => {
    await sql.query(`DROP SCHEMA "${schema}" CASCADE`)
    await sql.close()
  })

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
