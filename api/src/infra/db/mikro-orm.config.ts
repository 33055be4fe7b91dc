import { defineConfig, type Options } from '@mikro-orm/postgresql'
import type { AnyEntity, EntityClass } from '@mikro-orm/core'
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy'
import { MIGRATIONS } from '../../migrations'

/**
 * The one ORM configuration. Schema changes only through migrations (never auto-sync outside tests);
 * migrations are listed explicitly so they work from the compiled dist/ as well as from sources. The
 * entities are infra's and the modules' (persistedEntities(API_MODULES)), listed so discovery never scans the file system.
 * `onStatement` sees every statement MikroORM sends (statement-metrics.ts counts them).
 */
export function createOrmConfig(
  clientUrl: string,
  poolMax: number,
  entities: readonly EntityClass<AnyEntity>[],
  onStatement?: (sql: string) => void,
): Options {
  return defineConfig({
    clientUrl,
    entities: [...entities],
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
    // Query logging would write every parameter value (sealed keys, token hashes) to the log; leave it off here.
    debug: false,
    // Called with each statement before it is sent (the SQL with `?` placeholders); the SQL goes on unchanged.
    ...(onStatement && {
      onQuery: (sql: string) => {
        onStatement(sql)
        return sql
      },
    }),
  })
}
