import { defineConfig, type Options } from '@mikro-orm/postgresql'
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy'
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
    // MikroORM 7 no longer reads types from decorator metadata by default; the entities rely on it (as on 6).
    metadataProvider: ReflectMetadataProvider,
    forceUtcTimezone: true,
    pool: { min: 0, max: poolMax },
    allowGlobalContext: false,
    // MikroORM 6 gave every foreign key ON UPDATE CASCADE and the migrations have it; 7 emits no rule by default.
    schemaGenerator: { defaultUpdateRule: 'cascade' },
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    debug: false,
  })
}
