// `npm run db:diff`: the SQL that would bring a database migrated with every migration up to the entities, on an
// in-memory PGlite. Empty output means the migrations are complete; otherwise it is the body of the next migration
// (review it: the generator names constraints but does not know which changes are meant).
import 'reflect-metadata'
import { silentLogger } from '@idplane/common'
import { Database } from '../api/src/infra/db/database'
import { persistedEntities } from '../api/src/infra/db/persisted-entities'
import { PGLITE_IN_MEMORY } from '../api/src/infra/db/pglite-server'
import { API_MODULES } from '../api/src/modules'

async function main(): Promise<void> {
  const database = await Database.open(
    { kind: 'pglite', dir: PGLITE_IN_MEMORY },
    silentLogger,
    persistedEntities(API_MODULES),
  )
  try {
    const sql = await database.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true })
    process.stdout.write(sql.trim() === '' ? '-- no difference\n' : `${sql.trim()}\n`)
  } finally {
    await database.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
