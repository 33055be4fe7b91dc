import { silentLogger } from '@idplane/common'
import { Database } from '../../api/src/infra/db/database'
import { persistedEntities } from '../../api/src/infra/db/persisted-entities'
import { API_MODULES } from '../../api/src/modules'
import { freshDatabase, type FreshDatabase } from '../helpers/database'

describe.each(['pglite', 'postgres'] as const)('migrations on %s', (kind) => {
  let fresh: FreshDatabase
  let database: Database

  beforeAll(async () => {
    fresh = await freshDatabase(kind)
    database = await Database.open(fresh.target, silentLogger, persistedEntities(API_MODULES))
  })

  afterAll(async () => {
    await database?.close()
    await fresh?.drop()
  })

  it('leave no difference between the entities and the migrated schema', async () => {
    const diff = await database.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true })
    expect(diff.trim()).toBe('')
  })

  it('seed the eight organization roles', async () => {
    const rows = await database
      .fork()
      .getConnection()
      .execute<{ name: string }[]>('select name from org_roles order by name')
    expect(rows.map((row) => row.name)).toEqual([
      'admin',
      'holder',
      'issuer',
      'member',
      'owner',
      'platform_admin',
      'super_admin',
      'verifier',
    ])
  })

  it('are idempotent when the database is opened again', async () => {
    const applied = await database.orm.migrator.up()
    expect(applied).toEqual([])
  })
})
