import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { promisify } from 'node:util'
import { silentLogger } from '@idplane/common'
import { Database } from '../../api/src/infra/db/database'
import { persistedEntities } from '../../api/src/infra/db/persisted-entities'
import { API_MODULES } from '../../api/src/modules'
import { MIGRATIONS } from '../../api/src/migrations'
import { Client } from 'pg'
import { createDatabase, dropTemplate, freshDatabase, type FreshDatabase } from '../helpers/database'

describe.each(['pglite', 'postgres'] as const)('migrations on %s', (kind) => {
  let fresh: FreshDatabase
  let database: Database

  beforeAll(async () => {
    fresh = await freshDatabase(kind, process.env.DATABASE_URL, { migrated: false })
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

  // PostgreSQL's own autovacuum does this there.
  if (kind === 'pglite') {
    it('are vacuumed and analyzed once opened (PGlite has no autovacuum)', async () => {
      const analyzed = async () =>
        (
          await database
            .fork()
            .getConnection()
            .execute<
              { tuples: number }[]
            >(`select reltuples::float8 as tuples from pg_class where relname = 'org_roles'`)
        )[0].tuples
      // The first run ends before the database is handed out; reltuples is -1 until a table is analyzed.
      expect(await analyzed()).toBe(8)
    })
  }

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

  it('move stored ledger ids to the legacy form with the did:indy form beside them (issue 22 item 1)', async () => {
    const DID = 'Th7MpTaRZVRYnPiabds81Y'
    const OTHER = 'VGekVpqihCAwQWMtQ7gNTV'
    const indySchema = `did:indy:idplane:${DID}/anoncreds/v0/SCHEMA/Degree/1.0`
    const indyCredDef = `did:indy:idplane:${DID}/anoncreds/v0/CLAIM_DEF/7/default`
    // Back to just before the id move; later migrations go down and up with it.
    await database.orm.migrator.down({ to: 'Migration20261128130000RevocationLedger' })
    const sql = database.fork().getConnection()
    const org = '1d4c2a3e-0b6f-4f7a-9c1e-5a2b3c4d5e6f'
    await sql.execute(
      `insert into organizations (id, created_at, updated_at, name, slug, description) values (?, now(), now(), 'Ids', 'ids-migration', '')`,
      [org],
    )
    const schema = (id: string, ledgerId: string, issuerId: string, name: string) =>
      sql.execute(
        `insert into credential_schemas (id, created_at, updated_at, organization_id, type, schema_type, name, version, attributes, json_schema, ledger_id, issuer_id)
         values (?, now(), now(), ?, 'INDY', 'INDY', ?, '1.0', '[]', '{}', ?, ?)`,
        [id, org, name, ledgerId, issuerId],
      )
    await schema('2e4c2a3e-0b6f-4f7a-9c1e-5a2b3c4d5e61', indySchema, `did:indy:idplane:${DID}`, 'Degree')
    await schema('2e4c2a3e-0b6f-4f7a-9c1e-5a2b3c4d5e62', `${OTHER}:2:Badge:1.0`, OTHER, 'Badge')
    const credDef = (id: string, schemaLedgerId: string, credDefId: string | null, publisherDid: string, tag: string) =>
      sql.execute(
        `insert into credential_definitions (id, created_at, updated_at, organization_id, tag, schema_ledger_id, revocable, publisher_did, credential_definition_id, status)
         values (?, now(), now(), ?, ?, ?, false, ?, ?, 'created')`,
        [id, org, tag, schemaLedgerId, publisherDid, credDefId],
      )
    await credDef('3e4c2a3e-0b6f-4f7a-9c1e-5a2b3c4d5e61', indySchema, indyCredDef, `did:indy:idplane:${DID}`, 'default')
    await credDef('3e4c2a3e-0b6f-4f7a-9c1e-5a2b3c4d5e62', `${OTHER}:2:Badge:1.0`, `${OTHER}:3:CL:9:v1`, OTHER, 'v1')
    await credDef(
      '3e4c2a3e-0b6f-4f7a-9c1e-5a2b3c4d5e63',
      `${DID}:2:Degree:1.0`,
      null,
      `did:indy:idplane:${DID}`,
      'next',
    )

    expect(await database.orm.migrator.up()).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Migration20261128131500LedgerIdForms' })]),
    )
    const schemas = await sql.execute<{ ledger_id: string; ledger_did_indy_id: string | null }[]>(
      'select ledger_id, ledger_did_indy_id from credential_schemas where organization_id = ? order by id',
      [org],
    )
    expect(schemas).toEqual([
      { ledger_id: `${DID}:2:Degree:1.0`, ledger_did_indy_id: indySchema },
      { ledger_id: `${OTHER}:2:Badge:1.0`, ledger_did_indy_id: null },
    ])
    const definitions = await sql.execute(
      `select schema_ledger_id, schema_did_indy_id, credential_definition_id, credential_definition_did_indy_id
       from credential_definitions where organization_id = ? order by id`,
      [org],
    )
    expect(definitions).toEqual([
      {
        schema_ledger_id: `${DID}:2:Degree:1.0`,
        schema_did_indy_id: indySchema,
        credential_definition_id: `${DID}:3:CL:7:default`,
        credential_definition_did_indy_id: indyCredDef,
      },
      {
        schema_ledger_id: `${OTHER}:2:Badge:1.0`,
        schema_did_indy_id: null,
        credential_definition_id: `${OTHER}:3:CL:9:v1`,
        credential_definition_did_indy_id: null,
      },
      {
        schema_ledger_id: `${DID}:2:Degree:1.0`,
        schema_did_indy_id: indySchema,
        credential_definition_id: null,
        credential_definition_did_indy_id: null,
      },
    ])
    await sql.execute('delete from organizations where id = ?', [org])
  })

  it('are idempotent when the database is opened again', async () => {
    const applied = await database.orm.migrator.up()
    expect(applied).toEqual([])
  })
})

// In a jest run on PostgreSQL (test/jest/database-template.cjs) every other file's fresh database is a copy of the run's
// migrated template: it holds every migration before the API opens it, and the copy is the same schema. Without
// DATABASE_URL (a local run on the embedded defaults) this file names a template of its own on the default server, as
// its PostgreSQL cases above use that server, and drops it after.
describe('a fresh test database on PostgreSQL', () => {
  // Jest gives each test file its own process.env, and this block runs last in the file: nothing to put back.
  const ownTemplate = !process.env.DATABASE_URL || !process.env.IDPLANE_TEST_DB_TEMPLATE

  beforeAll(() => {
    if (!ownTemplate) return
    process.env.DATABASE_URL ||= 'postgresql://postgres@127.0.0.1:5432/test'
    process.env.IDPLANE_TEST_DB_TEMPLATE = `idplane_tpl_${randomBytes(6).toString('hex')}`
  })

  afterAll(async () => {
    if (ownTemplate) await dropTemplate(process.env.DATABASE_URL ?? '', process.env.IDPLANE_TEST_DB_TEMPLATE ?? '')
  })

  it('is a copy of the migrated template: opening it applies nothing, and the schema matches the entities', async () => {
    const fresh = await freshDatabase('postgres')
    try {
      const database = await Database.open(fresh.target, silentLogger, persistedEntities(API_MODULES))
      try {
        const applied = await database
          .fork()
          .getConnection()
          .execute<{ count: string }[]>('select count(*) as count from mikro_orm_migrations')
        expect(Number(applied[0].count)).toBe(MIGRATIONS.length)
        expect(await database.orm.migrator.getPending()).toEqual([])
        const diff = await database.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true })
        expect(diff.trim()).toBe('')
      } finally {
        await database.close()
      }
    } finally {
      await fresh.drop()
    }
  })
})

describe('making a test database', () => {
  const serverUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test'

  it('waits for its template to be free: a copy made while another session is on it is tried again', async () => {
    const suffix = randomBytes(6).toString('hex')
    const [template, copy] = [`idplane_t_${suffix}_template`, `idplane_t_${suffix}_copy`]
    const admin = new Client({ connectionString: serverUrl })
    await admin.connect()
    const url = new URL(serverUrl)
    url.pathname = `/${template}`
    const session = new Client({ connectionString: url.toString() })
    try {
      await admin.query(`create database "${template}"`)
      await session.connect()
      // PostgreSQL waits 5 s for the template's other sessions, then refuses (55006); this one leaves after 6.
      const leaves = new Promise((resolve) => setTimeout(resolve, 6_000)).then(() => session.end())
      await createDatabase(serverUrl, `create database "${copy}" template "${template}"`)
      await leaves
      const found = await admin.query('select 1 from pg_database where datname = $1', [copy])
      expect(found.rowCount).toBe(1)
    } finally {
      await session.end().catch(() => undefined)
      for (const name of [copy, template]) await admin.query(`drop database if exists "${name}" with (force)`)
      await admin.end()
    }
  }, 60_000)

  // The run's template belongs to the jest process that named it (test/jest/database-template.cjs). A jest a test starts
  // (test-tools.int.test.ts runs one) inherits the name; its teardown dropped the outer run's template while the outer
  // run's workers were copying it.
  it("drops the run's template only in the jest process that named it", async () => {
    const hooks = path.join(__dirname, '..', 'jest', 'database-template.cjs')
    const runHooks = async (env: NodeJS.ProcessEnv, between = '') => {
      const script = `const h = require(${JSON.stringify(hooks)}); (async () => { await h.setup(); ${between}
        console.log(process.env[h.VARIABLE]); await h.teardown() })().catch((e) => { console.error(e); process.exit(1) })`
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
        env: { ...env, PATH: process.env.PATH },
      })
      return stdout.trim()
    }
    const admin = new Client({ connectionString: serverUrl })
    await admin.connect()
    const exists = async (name: string) =>
      (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1
    const outer = `idplane_t_${randomBytes(6).toString('hex')}_template`
    let own = ''
    try {
      await admin.query(`create database "${outer}"`)
      // A nested jest: the outer run's name and owner in its environment.
      const kept = await runHooks({
        DATABASE_URL: serverUrl,
        IDPLANE_TEST_DB_TEMPLATE: outer,
        IDPLANE_TEST_DB_TEMPLATE_OWNER: String(process.pid),
      })
      expect(kept).toBe(outer)
      expect(await exists(outer)).toBe(true)
      // A jest of its own: it names the template, its first worker makes it, its teardown drops it.
      const make = `const c = new (require('pg').Client)({ connectionString: process.env.DATABASE_URL }); await c.connect()
        await c.query('create database "' + process.env[h.VARIABLE] + '"'); await c.end()`
      own = await runHooks({ DATABASE_URL: serverUrl }, make)
      expect(own).toMatch(/^idplane_tpl_[0-9a-f]{12}$/)
      expect(await exists(own)).toBe(false)
    } finally {
      for (const name of [outer, own].filter(Boolean))
        await admin.query(`drop database if exists "${name}" with (force)`)
      await admin.end()
    }
  }, 60_000)
})
