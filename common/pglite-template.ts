import { execFile, spawn } from 'node:child_process'
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

/** The cluster's folder inside a program's data directory (an agent's `AGENT_DATA_DIR`). */
export const PGDATA_DIR_NAME = 'pgdata'
/** A copy in progress beside its data directory; a process's early copy adds `-<pid>`. */
const COPYING_SUFFIX = '.copying'

let pending: Promise<PgliteTemplate> | undefined

/** The machine's template, made on first use (concurrent callers, in this process or others, share one). */
export function pgliteTemplate(): Promise<PgliteTemplate> {
  pending ??= ensureTemplate(templateRoot()).catch((error: unknown) => {
    pending = undefined
    throw error
  })
  return pending
}

/** Copies started early by startPgliteDataDirCopy, by the data directory they are for; each resolves to the copy. */
const earlyCopies = new Map<string, Promise<string | undefined>>()

/**
 * Starts copying the template for `pgdata` in a child process (`cp`), so that the copy runs on another core while the
 * program loads its modules: its ~970 files cost about 0.7 s of system time on this machine kind, and an agent copies
 * them at its first start (docs/benchmarks.md, "Provisioning"). preparePgliteDataDir takes the copy when it is
 * done. Nothing starts when `pgdata` exists or the machine has no template yet (the first start then makes it and
 * copies as before). The copy goes to a folder of this process's own, beside `pgdata`, so it never meets another
 * process's; it becomes `pgdata` only under the caller's data-directory lock.
 */
export function startPgliteDataDirCopy(pgdata: string): void {
  if (earlyCopies.has(pgdata) || existsSync(path.join(pgdata, 'PG_VERSION'))) return
  const root = templateRoot()
  if (!existsSync(path.join(root, COMPLETE_MARKER))) return
  const target = `${pgdata}${COPYING_SUFFIX}-${process.pid}`
  const copy = new Promise<string | undefined>((resolve) => {
    try {
      mkdirSync(path.dirname(pgdata), { recursive: true, mode: 0o700 })
      rmSync(target, { recursive: true, force: true })
    } catch {
      resolve(undefined)
      return
    }
    // -R -p (POSIX): the tree with its modes. Any failure (no cp, a full disk) only means the copy is made later.
    const child = spawn('cp', ['-R', '-p', templateAt(root).dataDir, target], { stdio: 'ignore' })
    // A program that ends first (another process holds its data directory) leaves no copy running.
    const stopCopy = () => child.kill('SIGKILL')
    process.once('exit', stopCopy)
    child.once('error', () => resolve(undefined))
    child.once('exit', (code) => {
      process.off('exit', stopCopy)
      resolve(code === 0 ? target : undefined)
    })
  })
  earlyCopies.set(pgdata, copy)
}

/**
 * Hands the early copy started for `from` (a spare agent's staging folder: it did not know its data directory yet)
 * to `to`: once finished, it is renamed beside `to` (the same file system: both live under the agents' data
 * directory), where preparePgliteDataDir takes it. `from`'s folder is removed. A copy that is not needed (`to` is a
 * cluster already) or that failed leaves `to` to preparePgliteDataDir's own copy.
 */
export function moveEarlyPgliteDataDirCopy(from: string, to: string): void {
  const early = earlyCopies.get(from)
  earlyCopies.delete(from)
  if (!early || earlyCopies.has(to)) return
  const moved = early.then((copied) => {
    try {
      if (!copied || existsSync(path.join(to, 'PG_VERSION'))) return undefined
      const target = `${to}${COPYING_SUFFIX}-${process.pid}`
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 })
      rmSync(target, { recursive: true, force: true })
      renameSync(copied, target)
      return target
    } catch {
      return undefined
    } finally {
      rmSync(path.dirname(from), { recursive: true, force: true })
    }
  })
  earlyCopies.set(to, moved)
}

/**
 * Makes `pgdata` a PGlite cluster unless it is one: the early copy when there is one, else a copy of the template.
 * Leftover copies of a process killed while copying are removed. Resolves to whether a cluster was there already.
 */
export async function preparePgliteDataDir(pgdata: string): Promise<boolean> {
  const early = earlyCopies.get(pgdata)
  earlyCopies.delete(pgdata)
  const copied = await early
  removeStaleCopies(pgdata, copied)
  if (existsSync(path.join(pgdata, 'PG_VERSION'))) {
    if (copied) rmSync(copied, { recursive: true, force: true })
    return true
  }
  await initialisePgliteDataDir(pgdata, copied)
  return false
}

function removeStaleCopies(pgdata: string, keep: string | undefined): void {
  const parent = path.dirname(pgdata)
  if (!existsSync(parent)) return
  const prefix = `${path.basename(pgdata)}${COPYING_SUFFIX}`
  for (const entry of readdirSync(parent)) {
    const full = path.join(parent, entry)
    if (entry.startsWith(prefix) && full !== keep) rmSync(full, { recursive: true, force: true })
  }
}

/** Creates `pgdata` (missing or empty) as a copy of the template, or from `copied`, a finished copy of it. */
export async function initialisePgliteDataDir(pgdata: string, copied?: string): Promise<void> {
  mkdirSync(path.dirname(pgdata), { recursive: true })
  // Copied aside and renamed: a process killed mid-copy leaves no half cluster where PG_VERSION would be found.
  let copying = copied
  if (!copying) {
    const template = await pgliteTemplate()
    copying = `${pgdata}${COPYING_SUFFIX}`
    rmSync(copying, { recursive: true, force: true })
    cpSync(template.dataDir, copying, { recursive: true })
  }
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
