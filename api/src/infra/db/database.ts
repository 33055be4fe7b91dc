import { MikroORM, type EntityManager } from '@mikro-orm/postgresql'
import type { AnyEntity, EntityClass } from '@mikro-orm/core'
import { Migrator } from '@mikro-orm/migrations'
import { Logger, UpstreamError } from '@idplane/common'
import type { Registry } from 'prom-client'
import { createOrmConfig } from './mikro-orm.config'
import { statementCounter } from './statement-metrics'
import { EmbeddedMaintenance } from './embedded-maintenance'
import { PgliteServer } from './pglite-server'

export type DatabaseTarget = { kind: 'postgres'; url: string; poolMax: number } | { kind: 'pglite'; dir: string }

/**
 * Owns the ORM for the life of the process: opens PostgreSQL (or embedded PGlite), applies pending
 * migrations, answers readiness, closes on shutdown.
 */
export class Database {
  private constructor(
    public readonly orm: MikroORM,
    private readonly embedded?: PgliteServer,
    private readonly maintenance?: EmbeddedMaintenance,
  ) {}

  /**
   * @param entities infra's and every module's entities (persistedEntities(API_MODULES))
   * @param registry where the statements sent are counted (statement-metrics.ts); none for tools and tests
   * @throws UpstreamError when the database cannot be reached or a migration fails
   */
  public static async open(
    target: DatabaseTarget,
    logger: Logger,
    entities: readonly EntityClass<AnyEntity>[],
    registry?: Registry,
  ): Promise<Database> {
    const embedded = target.kind === 'pglite' ? await PgliteServer.start(target.dir) : undefined
    const url = embedded ? embedded.url : target.kind === 'postgres' ? target.url : ''
    const poolMax = target.kind === 'postgres' ? target.poolMax : 1
    let orm: MikroORM | undefined
    try {
      const onStatement = registry && statementCounter(registry)
      orm = await MikroORM.init({ ...createOrmConfig(url, poolMax, entities, onStatement), extensions: [Migrator] })
      const applied = await orm.migrator.up()
      if (applied.length > 0) logger.info('Applied migrations', { migrations: applied.map((m) => m.name) })
      const connection = orm.em.getConnection()
      const maintenance = embedded && new EmbeddedMaintenance((text) => connection.execute(text), logger, registry)
      // Awaited: the statistics are there before the first request, and no test meets a run in progress.
      await maintenance?.start()
      return new Database(orm, embedded, maintenance)
    } catch (error) {
      await orm?.close(true).catch(() => undefined)
      await embedded?.stop().catch(() => undefined)
      throw new UpstreamError(`Could not open the ${target.kind} database: ${(error as Error).message}`, {
        cause: error,
      })
    }
  }

  /** A fresh entity manager for work outside a request (workers, start-up tasks). */
  public fork(): EntityManager {
    return this.orm.em.fork()
  }

  public async isHealthy(): Promise<boolean> {
    try {
      await this.orm.em.getConnection().execute('select 1')
      return true
    } catch {
      return false
    }
  }

  public async close(): Promise<void> {
    await this.maintenance?.stop()
    await this.orm.close(true)
    await this.embedded?.stop()
  }
}
