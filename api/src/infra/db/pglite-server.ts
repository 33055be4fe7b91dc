import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { acquireFileLock, releaseFileLock, restrictFileCreation, restrictTree } from '@idplane/common'
import { pgliteTemplateArchive, preparePgliteDataDir } from '@idplane/common/pglite-template'

/** In-memory PGlite, for tests. */
export const PGLITE_IN_MEMORY = 'memory://'

/**
 * Embedded PostgreSQL: PGlite served on a loopback port so MikroORM's ordinary postgres driver talks to
 * it. PGlite is a single session, so the pool must have exactly one connection (DESIGN.md), and it has
 * no lock of its own on its data directory: we take a lockfile so two processes never open it.
 */
export class PgliteServer {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    public readonly url: string,
    private readonly lockFile?: string,
  ) {}

  public static async start(dir: string): Promise<PgliteServer> {
    if (dir !== PGLITE_IN_MEMORY) {
      // Owner-only: PGlite creates its files with mode 0666 and relies on the umask.
      restrictFileCreation()
      restrictTree(dir)
    }
    const lockFile = dir === PGLITE_IN_MEMORY ? undefined : acquireLock(dir)
    try {
      let db: PGlite
      if (dir === PGLITE_IN_MEMORY) {
        db = await PGlite.create({ loadDataDir: await pgliteTemplateArchive() })
      } else {
        await preparePgliteDataDir(dir)
        db = await PGlite.create(dir)
      }
      // The template's files were written 0666 by initdb whatever the umask; what PGlite creates later follows it.
      if (dir !== PGLITE_IN_MEMORY) restrictTree(dir)
      // Port 0: the system picks a free port as the server binds (a port probed first could be taken in between).
      const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 1 })
      await server.start()
      return new PgliteServer(db, server, `postgresql://postgres@${server.getServerConn()}/postgres`, lockFile)
    } catch (error) {
      if (lockFile) releaseFileLock(lockFile)
      throw error
    }
  }

  public async stop(): Promise<void> {
    await this.server.stop()
    await this.db.close()
    if (this.lockFile) releaseFileLock(this.lockFile)
  }
}

function acquireLock(dir: string): string {
  const lockFile = `${dir}.lock`
  acquireFileLock(lockFile, `Embedded database ${dir} (stop that process or set DATA_DIR)`)
  return lockFile
}
