import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const SRC_DIR = path.resolve(__dirname, '..', '..')
const DB_DIR = __dirname

/** Every TypeScript source file under api/src, tests excluded. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

/**
 * Whether a source names MikroORM's EntityManager (an import, a type or a value) or reaches an entity manager:
 * `orm.em`, or a member of one called `em` (`this.em.find`, `em.fork()`).
 */
export function usesEntityManager(source: string): boolean {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
  return /\bEntityManager\b|\borm\s*\.\s*em\b|\bem\s*\.\s*\w/.test(code)
}

/** Wiring outside repositories and infra/db that hands the entity manager to repositories, each with why. */
const WIRING: Readonly<Record<string, string>> = {
  'container.ts': 'the composition root binds the entity manager and builds infra repositories with it',
  'infra/http/request-context.ts': "each request's fork of the entity manager (MikroORM's RequestContext)",
  'modules/ledger/ledger-commands.ts': 'the ledger CLI (ledger:anchor) builds its repositories without the container',
}

const relativeOf = (file: string): string => path.relative(SRC_DIR, file).split(path.sep).join('/')

/** Repositories, infra/db and the named wiring may hold the entity manager; nothing else. */
function mayUseEntityManager(file: string): boolean {
  return file.endsWith('.repository.ts') || file.startsWith(`${DB_DIR}${path.sep}`) || relativeOf(file) in WIRING
}

describe('the entity manager', () => {
  const files = sourceFiles(SRC_DIR)
  const users = files.filter((file) => usesEntityManager(readFileSync(file, 'utf8')))

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(100)
  })

  it('is used only by repositories and infra/db (docs/architecture.md, "Repositories")', () => {
    const offending = users.filter((file) => !mayUseEntityManager(file)).map(relativeOf)
    expect(offending).toEqual([])
  })

  it('names only wiring that still uses it', () => {
    expect(Object.keys(WIRING).filter((file) => !users.map(relativeOf).includes(file))).toEqual([])
  })

  it.each([
    ["import { EntityManager } from '@mikro-orm/postgresql'", true],
    ['constructor(private readonly em: EntityManager) {}', true],
    ['// the EntityManager stays in repositories', false],
    ['const repositories = new Map()', false],
    ['const em = database.orm.em', true],
    ['return RequestContext.create(orm.em, next)', true],
    ['const rows = await this.em.find(Proof, { organization: orgId })', true],
    ['await em.fork().insert(TailsFile, row)', true],
    ['// this.em.find belongs in a repository', false],
    ['const theme = item.emphasis', false],
  ])('finds a use in %j: %s', (source, expected) => {
    expect(usesEntityManager(source)).toBe(expected)
  })
})
