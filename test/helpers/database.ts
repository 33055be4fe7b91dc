import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import type { DatabaseTarget } from '../../api/src/infra/db/database'
import { silentLogger } from '@idplane/common'
import { Database } from '../../api/src/infra/db/database'
import { persistedEntities } from '../../api/src/infra/db/persisted-entities'
import { PGLITE_IN_MEMORY } from '../../api/src/infra/db/pglite-server'
import { API_MODULES } from '../../api/src/modules'

export interface FreshDatabase {
  target: DatabaseTarget
  /** Human-readable kind for test names: 'postgres' or 'pglite'. */
  kind: DatabaseTarget['kind']
  drop(): Promise<void>
}

/**
 * A database of its own for one test file: a new PostgreSQL database on the server of DATABASE_URL when it
 * is set (CI), else an in-memory PGlite (embedded defaults). Migrations run on open. `serverUrl`
 * names another PostgreSQL server (the benchmarks take theirs from BENCH_DATABASE_URL).
 *
 * In a jest run on PostgreSQL the new database is a copy of the run's migrated template (test/jest/database-template.cjs),
 * so opening it finds every migration applied; `migrated: false` asks for an empty one (the migrations' own test).
 */
export async function freshDatabase(
  kind: 'auto' | 'postgres' | 'pglite' = 'auto',
  serverUrl = process.env.DATABASE_URL,
  options: { migrated?: boolean } = {},
): Promise<FreshDatabase> {
  const usePostgres = kind === 'postgres' || (kind === 'auto' && serverUrl !== undefined && serverUrl !== '')
  if (!usePostgres) {
    return { kind: 'pglite', target: { kind: 'pglite', dir: PGLITE_IN_MEMORY }, drop: async () => undefined }
  }
  const adminUrl = serverUrl || 'postgresql://postgres@127.0.0.1:5432/test'
  const name = `idplane_t_${randomBytes(6).toString('hex')}`
  const templateName = process.env.IDPLANE_TEST_DB_TEMPLATE
  const template =
    options.migrated !== false && templateName && adminUrl === process.env.DATABASE_URL
      ? await migratedTemplate(adminUrl, templateName)
      : undefined
  await createDatabase(
    adminUrl,
    template ? `create database "${name}" template "${template}"` : `create database "${name}"`,
  )
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    kind: 'postgres',
    target: { kind: 'postgres', url: url.toString(), poolMax: 5 },
    drop: () =>
      withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(
        () => undefined,
      ),
  }
}

/**
 * The run's template, migrated by the first worker that asks (the others wait on the advisory lock). It is made under
 * another name and renamed when complete, so a worker killed half-way leaves nothing another would copy.
 */
async function migratedTemplate(adminUrl: string, name: string): Promise<string> {
  return withClient(adminUrl, async (client) => {
    const exists = async () =>
      (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1
    if (await exists()) return name
    await client.query('select pg_advisory_lock(hashtext($1))', [name])
    try {
      if (await exists()) return name
      const making = `${name}_making`
      await client.query(`drop database if exists "${making}" with (force)`)
      await client.query(`create database "${making}"`)
      const url = new URL(adminUrl)
      url.pathname = `/${making}`
      const database = await Database.open(
        { kind: 'postgres', url: url.toString(), poolMax: 1 },
        silentLogger,
        persistedEntities(API_MODULES),
      )
      await database.close()
      await client.query(`alter database "${making}" rename to "${name}"`)
      return name
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name])
    }
  })
}

/** PostgreSQL's SQLSTATE for "source database ... is being accessed by other users". */
const OBJECT_IN_USE = '55006'
/** How long a copy waits for the template to be free (PostgreSQL itself waits 5 s per try). */
const TEMPLATE_BUSY_MS = 30_000

/**
 * Runs a `create database`, trying a copy again while PostgreSQL finds another session on its template (an autovacuum
 * worker that did not stop within PostgreSQL's own 5 s is the one we know of). Any other failure names the statement,
 * so a CI log says which database step failed.
 */
export async function createDatabase(adminUrl: string, statement: string): Promise<void> {
  const startedAt = Date.now()
  for (let attempt = 1; ; attempt++) {
    try {
      await withClient(adminUrl, (client) => client.query(statement))
      return
    } catch (error) {
      const { code, detail } = error as { code?: string; detail?: string }
      if (code === OBJECT_IN_USE && Date.now() - startedAt < TEMPLATE_BUSY_MS) {
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt))
        continue
      }
      const state = `SQLSTATE ${code ?? 'none'}${detail ? `; ${detail}` : ''}`
      throw new Error(`${statement}: ${(error as Error).message} (${state})`, { cause: error })
    }
  }
}

/** Drops a template and the half-made one a killed worker may have left (what the jest teardown does for a run's). */
export async function dropTemplate(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    for (const database of [name, `${name}_making`])
      await client.query(`drop database if exists "${database}" with (force)`)
  })
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}
