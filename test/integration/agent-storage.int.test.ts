import {
  type AgentContext,
  BaseRecord,
  type BaseRecordConstructor,
  GenericRecord,
  JsonTransformer,
  RecordDuplicateError,
  RecordNotFoundError,
  type StorageService,
  type TagsBase,
} from '@credo-ts/core'
import fc from 'fast-check'

import { PgSqlClient, schemaLockKey } from '../../agent/src/adapters/sql/pg-sql-client'
import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../../agent/src/adapters/sql/schema-migrations'
import type { TagQuery } from '../../agent/src/adapters/storage/query-to-sql'
import type { SqlClient } from '../../agent/src/adapters/sql/sql-client'
import { MirroredStorageService } from '../../agent/src/adapters/storage/mirrored-storage.service'
import type { ContextStorage } from '../../agent/src/adapters/storage/row-storage'
import { withRowNarrowing } from '../../agent/src/adapters/storage/row-narrowing'
import { SqlStorageService } from '../../agent/src/adapters/storage/sql-storage.service'
import { matchesTagQuery } from '../../agent/src/adapters/storage/tag-match'
import type { OutboxDraft, WriteEvents, WrittenRecord } from '../../agent/src/adapters/storage/write-events'
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

type Storage<T extends BaseRecord> = ContextStorage<T>
type MakeStorage = <T extends BaseRecord>(sql: SqlClient, events?: WriteEvents) => Storage<T>

/**
 * Credo's StorageService methods of a store and nothing else, so the mirror must load scopes through getAll and
 * serialize written records itself (its path for a store that cannot hand it rows).
 */
function plainStorage<T extends BaseRecord>(inner: Storage<T>): Storage<T> {
  const plain: StorageService<T> & Pick<Storage<T>, 'deleteContext'> = {
    supportsCursorPagination: false,
    save: (agentContext, record) => inner.save(agentContext, record),
    update: (agentContext, record) => inner.update(agentContext, record),
    delete: (agentContext, record) => inner.delete(agentContext, record),
    deleteById: (agentContext, recordClass: BaseRecordConstructor<T>, id) =>
      inner.deleteById(agentContext, recordClass, id),
    getById: (agentContext, recordClass: BaseRecordConstructor<T>, id) => inner.getById(agentContext, recordClass, id),
    getAll: (agentContext, recordClass: BaseRecordConstructor<T>) => inner.getAll(agentContext, recordClass),
    findByQuery: (agentContext, recordClass: BaseRecordConstructor<T>, query, options) =>
      inner.findByQuery(agentContext, recordClass, query, options),
    deleteContext: (contextId) => inner.deleteContext(contextId),
  }
  return plain
}

/** The SQL store alone, the mirror in front of it (the agent's default) and the mirror in front of a plain store. */
const STORES: [string, MakeStorage][] = [
  ['SQL alone', (sql, events) => new SqlStorageService(sql, { events })],
  ['mirrored', (sql, events) => new MirroredStorageService(new SqlStorageService(sql, { events }))],
  [
    'mirrored over a plain StorageService',
    (sql, events) => new MirroredStorageService(plainStorage(new SqlStorageService(sql, { events }))),
  ],
]
const PATHS_BY_DATABASE = DATABASES.flatMap(([name, database]) =>
  STORES.map(([store, make]) => [name, store, database, make] as const),
)

describe.each(PATHS_BY_DATABASE)('Storage on %s, %s', (_name, _store, database, make) => {
  let sql: SqlClient
  let sut: Storage<GenericRecord>
  const base = context('base')

  beforeAll(async () => {
    sql = await database.open()
    await migrateSchema(sql)
    sut = make(sql)
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

  it.each(cases)('evaluates %s in memory (tag-match.ts) as the database does', (_name, query, ids) => {
    const matching = Object.entries(seeded).filter(([, tags]) => matchesTagQuery(query, tags))
    expect(matching.map(([id]) => id).sort()).toEqual(ids)
  })

  it('never serves a stale record or result after a write', async () => {
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

    // Instances handed out share nothing with the mirror.
    const z = await sut.getById(scope, GenericRecord, 'z')
    z.setTag('role', 'changed-in-memory')
    z.content = { mutated: true }
    const again = await sut.getById(scope, GenericRecord, 'z')
    expect(again.getTag('role')).toBe('issuer')
    expect(again.content).toEqual({ id: 'z' })

    await sut.deleteContext('cache-test')
    expect(await ids({ role: 'issuer' })).toEqual([])
  })

  it('hands out the written record as it was written, with every stored tag, whatever its writer does after', async () => {
    const scope = context('written-test')
    const record = aRecord('w', { role: 'issuer' })
    record.content = { step: 1 }
    await sut.save(scope, record)
    await sut.getAll(scope, GenericRecord) // the mirror loads the scope here, so the update below reaches it
    record.content = { step: 2 }
    await sut.update(scope, record)
    // The writer goes on with its instance, as Credo's services do after an update.
    record.content = { step: 3 }
    record.setTag('role', 'changed-after-the-write')
    const fromJson = jest.spyOn(JsonTransformer, 'fromJSON')
    try {
      const read = await sut.getById(scope, GenericRecord, 'w')
      expect(read).toBeInstanceOf(GenericRecord)
      expect(read.content).toEqual({ step: 2 })
      expect(read.getTags()).toEqual({ role: 'issuer' })
      // The stored tags are the instance's own after a read, as when a row is parsed (toInstance).
      expect(read.getTags()).toEqual((read as unknown as { _tags: TagsBase })._tags)
      // Behind the mirror the read copies the written record: nothing is parsed.
      if (sut instanceof MirroredStorageService) expect(fromJson).not.toHaveBeenCalled()
      read.content = { changed: 'by a reader' }
      expect((await sut.getById(scope, GenericRecord, 'w')).content).toEqual({ step: 2 })
    } finally {
      fromJson.mockRestore()
      await sut.deleteContext('written-test')
    }
  })

  it("parses no row a caller's narrowing rules out (row-narrowing.ts), and narrows neither pages nor other types", async () => {
    const scope = context('narrowed-test')
    for (const id of ['n1', 'n2', 'n3', 'n4']) await sut.save(scope, aRecord(id, { kind: id === 'n4' ? 'other' : 'x' }))
    // A store of its own over the same database, so that no instance is cached from the writes above.
    const reader = make<GenericRecord>(sql)
    await reader.findByQuery(scope, GenericRecord, { kind: 'none' } as never) // the mirror loads the scope here
    const asked: string[] = []
    const narrowing = {
      recordType: GenericRecord.type,
      mayKeep: (row: { id: string; json: string }) => {
        asked.push(row.id)
        return (JSON.parse(row.json) as { content: { id: string } }).content.id !== 'n2'
      },
    }
    const ids = (records: GenericRecord[]) => records.map((record) => record.id).sort()
    const fromJson = jest.spyOn(JsonTransformer, 'fromJSON')
    try {
      const found = await withRowNarrowing(narrowing, () => reader.findByQuery(scope, GenericRecord, { kind: 'x' }))
      if (reader instanceof MirroredStorageService) {
        expect(ids(found)).toEqual(['n1', 'n3'])
        // Asked only about the rows the query matched; the row ruled out was never parsed.
        expect(asked.sort()).toEqual(['n1', 'n2', 'n3'])
        expect(fromJson).toHaveBeenCalledTimes(2)
      } else {
        // A store that does not mirror the rows answers the query whole: the caller narrows the instances.
        expect(ids(found)).toEqual(['n1', 'n2', 'n3'])
      }
      const page = await withRowNarrowing(narrowing, () =>
        reader.findByQuery(scope, GenericRecord, { kind: 'x' }, { limit: 3, offset: 0 }),
      )
      expect(ids(page)).toEqual(['n1', 'n2', 'n3'])
      const otherType = { ...narrowing, recordType: 'SomeOtherRecord' }
      const whole = await withRowNarrowing(otherType, () => reader.findByQuery(scope, GenericRecord, { kind: 'x' }))
      expect(ids(whole)).toEqual(['n1', 'n2', 'n3'])
    } finally {
      fromJson.mockRestore()
      await sut.deleteContext('narrowed-test')
    }
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

/** A record with a state, standing for Credo's exchange records in the outbox cases. */
class StatefulRecord extends BaseRecord {
  public static override readonly type = 'StatefulRecord'
  public override readonly type = StatefulRecord.type
  public state = 'start'

  public getTags(): TagsBase {
    return { ...this._tags, state: this.state }
  }
}

function aStatefulRecord(id: string, state: string): StatefulRecord {
  const record = new StatefulRecord()
  record.id = id
  record.state = state
  return record
}

/** Drafts an event for every StatefulRecord write and remembers what the storage reported. */
class RecordingEvents implements WriteEvents {
  public readonly outcomes: [string, boolean][] = []
  private next = 0

  public draft(_contextId: string, record: WrittenRecord, recordJson: string): OutboxDraft | undefined {
    if (record.type !== StatefulRecord.type) return undefined
    const id = `00000000-0000-4000-8000-${String(++this.next).padStart(12, '0')}`
    return { id, kind: 'test', body: JSON.stringify({ id, record: JSON.parse(recordJson) as unknown }) }
  }

  public settled(draft: OutboxDraft, stored: boolean): void {
    this.outcomes.push([draft.id, stored])
  }
}

describe.each(PATHS_BY_DATABASE)('Transactional outbox on %s, %s', (_name, _store, database, make) => {
  let sql: SqlClient
  let events: RecordingEvents
  let sut: Storage<StatefulRecord>
  const base = context('base')

  beforeAll(async () => {
    sql = await database.open()
    await migrateSchema(sql)
  })

  beforeEach(async () => {
    await sql.query('DELETE FROM outbox_events')
    events = new RecordingEvents()
    sut = make(sql, { draft: (...args) => events.draft(...args), settled: (...args) => events.settled(...args) })
  })

  afterAll(async () => {
    await database.drop(sql)
    await sql.close()
  })

  const outboxStates = async () =>
    (
      await sql.query<{ state: string }>(
        "SELECT body::jsonb->'record'->>'state' AS state FROM outbox_events WHERE kind = 'test' ORDER BY seq",
      )
    ).rows.map((row) => row.state)

  it('stores an event with a new record and with each state change, not with other updates', async () => {
    const record = aStatefulRecord('r1', 'offer-sent')
    await sut.save(base, record)
    record.metadata.set('note', { unchanged: 'state' })
    await sut.update(base, record)
    record.state = 'done'
    await sut.update(base, record)
    expect(await outboxStates()).toEqual(['offer-sent', 'done'])
    expect(events.outcomes.map(([, stored]) => stored)).toEqual([true, false, true])
  })

  it('stores no event when the write fails, and says so', async () => {
    await sut.save(base, aStatefulRecord('r2', 'offer-sent'))
    await expect(sut.save(base, aStatefulRecord('r2', 'offer-sent'))).rejects.toBeInstanceOf(RecordDuplicateError)
    await expect(sut.update(base, aStatefulRecord('missing', 'done'))).rejects.toBeInstanceOf(RecordNotFoundError)
    expect(await outboxStates()).toEqual(['offer-sent'])
    expect(events.outcomes.map(([, stored]) => stored)).toEqual([true, false, false])
  })

  it('keeps record and event together when the statement fails on the event', async () => {
    const record = aStatefulRecord('r3', 'offer-sent')
    await sut.save(base, record)
    // The next draft reuses an event id already in the table: the event insert fails, and with it the update.
    const taken = events.outcomes[0][0]
    const failing = make<StatefulRecord>(sql, {
      draft: (_c, _t, json) => ({ id: taken, kind: 'test', body: json }),
      settled: () => undefined,
    })
    record.state = 'done'
    await expect(failing.update(base, record)).rejects.toThrow()
    expect((await sut.getById(base, StatefulRecord, 'r3')).state).toBe('offer-sent')
    expect(await outboxStates()).toEqual(['offer-sent'])
  })
})

describe('Mirror and SQL agree on generated records and queries', () => {
  const tagValue = fc.constantFrom('a', 'b', 'c')
  const tags = fc.record(
    { state: tagValue, role: fc.constantFrom('issuer', 'holder'), flag: fc.boolean(), keys: fc.array(tagValue) },
    { requiredKeys: [] },
  )
  const leaf: fc.Arbitrary<TagQuery> = fc.oneof(
    fc.record({ state: tagValue }),
    fc.record({ role: fc.constantFrom('issuer', 'holder', 'verifier') }),
    fc.record({ flag: fc.boolean() }),
    fc.record({ keys: fc.array(tagValue, { maxLength: 2 }) }),
    fc.record({ state: tagValue, role: fc.constantFrom('issuer', 'holder') }),
    fc.constant({}),
  )
  const query: fc.Arbitrary<TagQuery> = fc.letrec<{ query: TagQuery }>((tie) => ({
    query: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ $and: fc.array(tie('query'), { maxLength: 3 }) }),
      fc.record({ $or: fc.array(tie('query'), { maxLength: 3 }) }),
      fc.record({ $not: tie('query') }),
    ),
  })).query

  it('on PGlite', async () => {
    const sql = await PgliteSqlClient.open()
    await migrateSchema(sql)
    const writer = new MirroredStorageService(new SqlStorageService<GenericRecord>(sql))
    const direct = new SqlStorageService<GenericRecord>(sql)
    let round = 0
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(tags, { maxLength: 12 }),
          fc.array(query, { minLength: 1, maxLength: 5 }),
          async (all, queries) => {
            const scope = context(`generated-${round++}`)
            for (const [index, recordTags] of all.entries()) await writer.save(scope, aRecord(`r${index}`, recordTags))
            // Some records change their tags after the mirror was loaded.
            await writer.getAll(scope, GenericRecord)
            for (const [index] of all.entries()) {
              if (index % 3 !== 0) continue
              const record = await writer.getById(scope, GenericRecord, `r${index}`)
              record.setTag('state', 'b')
              await writer.update(scope, record)
            }
            for (const generated of queries) {
              const fromMirror = await writer.findByQuery(scope, GenericRecord, generated as never)
              const fromSql = await direct.findByQuery(scope, GenericRecord, generated as never)
              expect(fromMirror.map((record) => record.id)).toEqual(fromSql.map((record) => record.id))
            }
          },
        ),
        { numRuns: 60 },
      )
    } finally {
      await sql.close()
    }
  })
})

const migrationSchema = randomSchemaName('agent_outbox_migration')

describe.each([
  [
    'PostgreSQL',
    {
      open: () => PgSqlClient.connect(TEST_DATABASE_URL, migrationSchema),
      drop: async (sql: SqlClient) => {
        await sql.query(`DROP SCHEMA "${migrationSchema}" CASCADE`)
      },
    },
  ],
  ['PGlite', { open: () => PgliteSqlClient.open(), drop: async () => undefined }],
] as [string, Database][])('Schema migration of an older outbox on %s', (_name, database) => {
  it('turns jsonb bodies into text, keeps undelivered events and drops delivered ones', async () => {
    const sql = await database.open()
    try {
      await sql.query(`CREATE TABLE outbox_events (
        id uuid PRIMARY KEY, kind text NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
        seq bigserial, attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz, last_error text)`)
      await sql.query(
        `INSERT INTO outbox_events (id, kind, body, delivered_at) VALUES
         ('00000000-0000-4000-8000-000000000001', 'proof', '{"id": "pending"}', NULL),
         ('00000000-0000-4000-8000-000000000002', 'proof', '{"id": "sent"}', now())`,
      )
      await migrateSchema(sql)
      await migrateSchema(sql) // idempotent: runs at every start
      const { rows } = await sql.query<{ body: string }>('SELECT body FROM outbox_events')
      expect(rows).toEqual([{ body: '{"id": "pending"}' }])
    } finally {
      await database.drop(sql)
      await sql.close()
    }
  })
})

describe('One agent process per PostgreSQL schema', () => {
  const shared = randomSchemaName('agent_lock')

  afterAll(async () => {
    const sql = await PgSqlClient.connect(TEST_DATABASE_URL, shared)
    await sql.query(`DROP SCHEMA IF EXISTS "${shared}" CASCADE`)
    await sql.close()
  })

  it('refuses a second store on the same schema until the first is closed', async () => {
    const first = await PgSqlClient.connect(TEST_DATABASE_URL, shared)
    try {
      await expect(PgSqlClient.connect(TEST_DATABASE_URL, shared)).rejects.toThrow(
        `Agent schema "${shared}" is in use by another agent process`,
      )
      // Another schema is another agent: not refused.
      const otherSchema = randomSchemaName('agent_lock')
      const other = await PgSqlClient.connect(TEST_DATABASE_URL, otherSchema)
      await other.query(`DROP SCHEMA "${otherSchema}"`)
      await other.close()
    } finally {
      await first.close()
    }
    const second = await PgSqlClient.connect(TEST_DATABASE_URL, shared)
    expect((await second.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    await second.close()
  })

  it('takes the lock again after losing its connection, before the next query', async () => {
    const sql = await PgSqlClient.connect(TEST_DATABASE_URL, shared)
    const holders = async () =>
      (
        await sql.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
          [schemaLockKey(shared)],
        )
      ).rows.map((row) => row.pid)
    try {
      const [holder] = await holders()
      expect(holder).toBeGreaterThan(0)
      await sql.query('SELECT pg_terminate_backend($1)', [holder])
      await new Promise((resolve) => setTimeout(resolve, 200))
      const after = await holders()
      expect(after).toHaveLength(1)
      expect(after[0]).not.toBe(holder)
      await expect(PgSqlClient.connect(TEST_DATABASE_URL, shared)).rejects.toThrow(/in use by another agent process/)
    } finally {
      await sql.close()
    }
  })
})
