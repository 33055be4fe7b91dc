import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * A freshly initialised PGlite cluster kept once per machine and copied for every new database.
 *
 * PGlite's initdb costs 6 to 12 s of CPU on this machine kind, and every new agent, every embedded API and every
 * in-memory test database paid it; a copy of an initialised cluster costs well under a second (docs/benchmarks.md,
 * "PGlite template"). The template is a stopped cluster with nothing in it, as initdb leaves it, so a copy is
 * exactly what initdb would have produced. It is made in a short-lived child process: initdb leaves about 400 MB of
 * WASM memory behind in the process that ran it.
 *
 * Where: `PGLITE_TEMPLATE_DIR` when set (an image can carry one made at build time), else a folder of the system's
 * temporary directory named after the PGlite version, so an upgrade never reuses an older cluster.
 */
export interface PgliteTemplate {
  /** The initialised data directory, to copy into a new file-based database. */
  dataDir: string
  /** The same cluster as a tar archive, PGlite's `loadDataDir` input for an in-memory database. */
  archive: string
}

const COMPLETE_MARKER = 'template-complete'

let pending: Promise<PgliteTemplate> | undefined

/** The machine's template, made on first use (concurrent callers, in this process or others, share one). */
export function pgliteTemplate(): Promise<PgliteTemplate> {
  pending ??= ensureTemplate(templateRoot()).catch((error: unknown) => {
    pending = undefined
    throw error
  })
  return pending
}

/** Creates `pgdata` (missing or empty) as a copy of the template. */
export async function initialisePgliteDataDir(pgdata: string): Promise<void> {
  const template = await pgliteTemplate()
  mkdirSync(path.dirname(pgdata), { recursive: true })
  // Copied aside and renamed: a process killed mid-copy leaves no half cluster where PG_VERSION would be found.
  const copying = `${pgdata}.copying`
  rmSync(copying, { recursive: true, force: true })
  cpSync(template.dataDir, copying, { recursive: true })
  // An empty folder (made by a chart's volume, say) is replaced; anything else is someone's data and is not touched.
  if (existsSync(pgdata)) {
    if (readdirSync(pgdata).length > 0) {
      rmSync(copying, { recursive: true, force: true })
      throw new Error(`${pgdata} is not empty and holds no PGlite database; move it away or choose another directory`)
    }
    rmSync(pgdata, { recursive: true })
  }
  renameSync(copying, pgdata)
}

/** The template as PGlite's `loadDataDir` option for an in-memory database. */
export async function pgliteTemplateArchive(): Promise<Blob> {
  const template = await pgliteTemplate()
  return new Blob([readFileSync(template.archive)])
}

function templateRoot(): string {
  const configured = process.env.PGLITE_TEMPLATE_DIR
  if (configured) return configured
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0
  return path.join(tmpdir(), `idplane-pglite-template-${pgliteVersion()}-${uid}`)
}

function pgliteVersion(): string {
  // The package's exports hide its package.json: walk up from its entry point.
  let dir = path.dirname(require.resolve('@electric-sql/pglite'))
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) return 'unknown'
    dir = parent
  }
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version
}

function templateAt(root: string): PgliteTemplate {
  return { dataDir: path.join(root, 'pgdata'), archive: path.join(root, 'pgdata.tar') }
}

async function ensureTemplate(root: string): Promise<PgliteTemplate> {
  if (existsSync(path.join(root, COMPLETE_MARKER))) return templateAt(root)
  // Built beside its final place and renamed into it: a reader never sees half a template, and of two processes
  // building at once the second rename fails and that process uses the first one's.
  const building = `${root}.building-${process.pid}-${randomBytes(4).toString('hex')}`
  mkdirSync(building, { recursive: true, mode: 0o700 })
  try {
    await initdbApart(templateAt(building))
    writeFileSync(path.join(building, COMPLETE_MARKER), new Date().toISOString())
    try {
      renameSync(building, root)
    } catch (error) {
      if (!existsSync(path.join(root, COMPLETE_MARKER))) throw error
    }
  } finally {
    rmSync(building, { recursive: true, force: true })
  }
  return templateAt(root)
}

function initdbApart(template: PgliteTemplate): Promise<void> {
  const script = `const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))})
    const { writeFileSync } = require('node:fs')
    PGlite.create(process.argv[1])
      .then(async (db) => {
        const archive = await db.dumpDataDir('none')
        writeFileSync(process.argv[2], Buffer.from(await archive.arrayBuffer()))
        await db.close()
      })
      .catch((error) => { console.error(error); process.exit(1) })`
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, template.dataDir, template.archive], (error, _stdout, stderr) => {
      if (error) reject(new Error(`PGlite initdb failed: ${stderr.trim() || error.message}`, { cause: error }))
      else resolve()
    })
  })
}
