import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createServer } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { IdplaneError } from '@idplane/common'

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
    const lockFile = dir === PGLITE_IN_MEMORY ? undefined : acquireLock(dir)
    try {
      const db = dir === PGLITE_IN_MEMORY ? new PGlite() : new PGlite(dir)
      await db.waitReady
      const port = await freePort()
      const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 })
      await server.start()
      return new PgliteServer(db, server, `postgresql://postgres@127.0.0.1:${port}/postgres`, lockFile)
    } catch (error) {
      if (lockFile) rmSync(lockFile, { force: true })
      throw error
    }
  }

  public async stop(): Promise<void> {
    await this.server.stop()
    await this.db.close()
    if (this.lockFile) rmSync(this.lockFile, { force: true })
  }
}

function acquireLock(dir: string): string {
  mkdirSync(path.dirname(dir), { recursive: true })
  const lockFile = `${dir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx')
      writeFileSync(fd, String(process.pid))
      closeSync(fd)
      return lockFile
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(readFileSync(lockFile, 'utf8'))
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new IdplaneError(`Embedded database ${dir} is in use by process ${holder}; stop it or set DATA_DIR`)
      }
      rmSync(lockFile, { force: true }) // stale lock of a process that died
    }
  }
  throw new IdplaneError(`Could not lock embedded database ${dir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
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
