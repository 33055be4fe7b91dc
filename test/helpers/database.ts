import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import type { DatabaseTarget } from '../../api/src/infra/db/database'
import { PGLITE_IN_MEMORY } from '../../api/src/infra/db/pglite-server'

export interface FreshDatabase {
  target: DatabaseTarget
  /** Human-readable kind for test names: 'postgres' or 'pglite'. */
  kind: DatabaseTarget['kind']
  drop(): Promise<void>
}

/**
 * A database of its own for one test file: a new PostgreSQL database on the server of DATABASE_URL when it
 * is set (CI), else an in-memory PGlite (embedded defaults). Either way migrations run on open. `serverUrl`
 * names another PostgreSQL server (the benchmarks take theirs from BENCH_DATABASE_URL).
 */
export async function freshDatabase(
  kind: 'auto' | 'postgres' | 'pglite' = 'auto',
  serverUrl = process.env.DATABASE_URL,
): Promise<FreshDatabase> {
  const usePostgres = kind === 'postgres' || (kind === 'auto' && serverUrl !== undefined && serverUrl !== '')
  if (!usePostgres) {
    return { kind: 'pglite', target: { kind: 'pglite', dir: PGLITE_IN_MEMORY }, drop: async () => undefined }
  }
  const adminUrl = serverUrl || 'postgresql://postgres@127.0.0.1:5432/test'
  const name = `idplane_t_${randomBytes(6).toString('hex')}`
  await withClient(adminUrl, (client) => client.query(`create database "${name}"`))
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

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}
