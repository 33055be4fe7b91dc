import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { PgliteServer } from '../../api/src/infra/db/pglite-server'

/** Every path under `dir` (itself included) that its group or others may read, write or enter, with its mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = []
  const visit = (target: string) => {
    const stat = statSync(target)
    if ((stat.mode & 0o077) !== 0) found.push(`${target} ${(stat.mode & 0o777).toString(8)}`)
    if (stat.isDirectory()) for (const entry of readdirSync(target)) visit(path.join(target, entry))
  }
  visit(dir)
  return found
}

describe('Embedded database files', () => {
  let root: string
  let umask: number

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'private-files-'))
    chmodSync(root, 0o700)
    // The permissive umask of many containers, under which PGlite's files were world-writable.
    umask = process.umask(0)
  })

  afterEach(() => {
    process.umask(umask)
    rmSync(root, { recursive: true, force: true })
  })

  it("are the owner's only in an agent's PGlite data directory, including files left open before", async () => {
    const dataDir = path.join(root, 'agent')
    mkdirSync(dataDir, { mode: 0o777 })
    writeFileSync(path.join(dataDir, 'left-by-an-older-version'), 'x', { mode: 0o666 })
    const sql = await PgliteSqlClient.open(dataDir)
    await sql.query('CREATE TABLE items (id text PRIMARY KEY)')
    await sql.query('INSERT INTO items (id) VALUES ($1)', ['written'])
    await sql.close()
    expect(openToOthers(dataDir)).toEqual([])
  })

  it("are the owner's only in the API's embedded database", async () => {
    const dir = path.join(root, 'pglite')
    const server = await PgliteServer.start(dir)
    await server.stop()
    expect(openToOthers(root)).toEqual([])
  })
})
