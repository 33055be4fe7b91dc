import { defineConfig, type Options } from '@mikro-orm/postgresql'
import { ENTITIES } from './entities'
import { MIGRATIONS } from '../../migrations'

/**
 * The one ORM configuration. Schema changes only through migrations (never auto-sync outside tests);
 * migrations are listed explicitly so they work from the compiled dist/ as well as from sources.
 */
export function createOrmConfig(clientUrl: string, poolMax: number): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    forceUtcTimezone: true,
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    // Query logging would write every parameter value (sealed keys, token hashes) to the log; leave it off here.
    debug: false,
  })
}
