import { createServer } from 'node:net'
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
      const port = await freePort()
      const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 })
      await server.start()
      return new PgliteServer(db, server, `postgresql://postgres@127.0.0.1:${port}/postgres`, lockFile)
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
