import { defineConfig, type Options } from '@mikro-orm/postgresql'
import type { AnyEntity, EntityClass } from '@mikro-orm/core'
import { MIGRATIONS } from '../../migrations'

/**
 * The one ORM configuration. Schema changes only through migrations (never auto-sync outside tests);
 * migrations are listed explicitly so they work from the compiled dist/ as well as from sources. The
 * entities are infra's and the modules' (persistedEntities(API_MODULES)), listed so discovery never scans the file system.
 */
export function createOrmConfig(
  clientUrl: string,
  poolMax: number,
  entities: readonly EntityClass<AnyEntity>[],
): Options {
  return defineConfig({
    clientUrl,
    entities: [...entities],
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
