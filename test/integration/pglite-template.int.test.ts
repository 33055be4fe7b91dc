import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { PGlite } from '@electric-sql/pglite'

import {
  initialisePgliteDataDir,
  moveEarlyPgliteDataDirCopy,
  pgliteTemplateArchive,
  preparePgliteDataDir,
  startPgliteDataDirCopy,
} from '../../common/pglite-template'

// One real template for the file (made by a real child process running PGlite's initdb): slow once, then copies.
describe('PGlite template', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'pglite-template-test-'))
  const previous = process.env.PGLITE_TEMPLATE_DIR

  beforeAll(() => {
    process.env.PGLITE_TEMPLATE_DIR = path.join(work, 'template')
  })

  afterAll(() => {
    if (previous === undefined) delete process.env.PGLITE_TEMPLATE_DIR
    else process.env.PGLITE_TEMPLATE_DIR = previous
    rmSync(work, { recursive: true, force: true })
  })

  it('gives two file databases that are independent copies of one initialised cluster', async () => {
    const first = path.join(work, 'a', 'pgdata')
    const second = path.join(work, 'b', 'pgdata')
    await Promise.all([initialisePgliteDataDir(first), initialisePgliteDataDir(second)])
    expect(existsSync(path.join(first, 'PG_VERSION'))).toBe(true)
    // No building folder is left beside the template.
    expect(readdirSync(work).sort()).toEqual(['a', 'b', 'template'])

    const a = await PGlite.create(first)
    await a.exec('create table only_in_a (n int); insert into only_in_a values (1)')
    await a.close()
    const b = await PGlite.create(second)
    const tables = await b.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_name = 'only_in_a'",
    )
    await b.close()
    expect(tables.rows).toEqual([])
  }, 120_000)

  it('loads an in-memory database from the same template', async () => {
    const db = await PGlite.create({ loadDataDir: await pgliteTemplateArchive() })
    const result = await db.query<{ answer: number }>('select 41 + 1 as answer')
    await db.close()
    expect(result.rows).toEqual([{ answer: 42 }])
  }, 120_000)

  it('fills an empty folder and refuses one that holds something else', async () => {
    const empty = path.join(work, 'empty')
    mkdirSync(empty)
    await initialisePgliteDataDir(empty)
    expect(existsSync(path.join(empty, 'PG_VERSION'))).toBe(true)

    const occupied = path.join(work, 'occupied')
    mkdirSync(occupied)
    writeFileSync(path.join(occupied, 'notes.txt'), 'mine')
    await expect(initialisePgliteDataDir(occupied)).rejects.toThrow(/not empty and holds no PGlite database/)
    expect(readdirSync(occupied)).toEqual(['notes.txt'])
    expect(existsSync(`${occupied}.copying`)).toBe(false)
  }, 120_000)

  it('takes the copy started early (a child process), removes a killed copy, and keeps an existing cluster', async () => {
    const agentDir = path.join(work, 'early')
    const pgdata = path.join(agentDir, 'pgdata')
    // What a process killed while copying leaves.
    mkdirSync(`${pgdata}.copying-999999`, { recursive: true })
    startPgliteDataDirCopy(pgdata)
    // The child process copies into a folder of this process's own.
    const early = path.join(agentDir, `pgdata.copying-${process.pid}`)
    for (let waited = 0; !existsSync(path.join(early, 'PG_VERSION')); waited += 20) {
      if (waited > 30_000) throw new Error('The early copy did not start')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await preparePgliteDataDir(pgdata)
    expect(readdirSync(agentDir)).toEqual(['pgdata'])
    const db = await PGlite.create(pgdata)
    await db.exec('create table kept (n int); insert into kept values (7)')
    await db.close()

    // A cluster is there: an early copy is thrown away and the data stays.
    startPgliteDataDirCopy(pgdata)
    await preparePgliteDataDir(pgdata)
    expect(readdirSync(agentDir)).toEqual(['pgdata'])
    const reopened = await PGlite.create(pgdata)
    const rows = await reopened.query<{ n: number }>('select n from kept')
    await reopened.close()
    expect(rows.rows).toEqual([{ n: 7 }])
  }, 120_000)

  it('moves a spare’s early copy to the data directory it is launched with, and throws it away for a cluster', async () => {
    const spares = path.join(work, 'spares')
    const staging = path.join(spares, '4242', 'pgdata')
    startPgliteDataDirCopy(staging)
    const pgdata = path.join(work, 'launched', 'pgdata')
    moveEarlyPgliteDataDirCopy(staging, pgdata)
    await preparePgliteDataDir(pgdata)
    expect(readdirSync(path.join(work, 'launched'))).toEqual(['pgdata'])
    expect(readdirSync(spares)).toEqual([])
    const db = await PGlite.create(pgdata)
    const rows = await db.query<{ one: number }>('select 1 as one')
    await db.close()
    expect(rows.rows).toEqual([{ one: 1 }])

    // Launched on an existing cluster (a restart): the staged copy goes, the cluster stays.
    startPgliteDataDirCopy(staging)
    moveEarlyPgliteDataDirCopy(staging, pgdata)
    expect(await preparePgliteDataDir(pgdata)).toBe(true)
    expect(readdirSync(path.join(work, 'launched'))).toEqual(['pgdata'])
    expect(readdirSync(spares)).toEqual([])
  }, 120_000)
})
