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

/** Whether a source names MikroORM's EntityManager (an import, a type or a value). */
export function usesEntityManager(source: string): boolean {
  return /\bEntityManager\b/.test(source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''))
}

/** Repositories, infra/db and the composition root may hold the entity manager; nothing else. */
function mayUseEntityManager(file: string): boolean {
  const relative = path.relative(SRC_DIR, file)
  return (
    file.endsWith('.repository.ts') ||
    file.startsWith(`${DB_DIR}${path.sep}`) ||
    relative === 'container.ts' ||
    relative === 'main.ts'
  )
}

describe('the entity manager', () => {
  const files = sourceFiles(SRC_DIR)
  const users = files.filter((file) => usesEntityManager(readFileSync(file, 'utf8')))

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(100)
  })

  it('is used only by repositories and infra/db (docs/architecture.md, "Repositories")', () => {
    const offending = users
      .filter((file) => !mayUseEntityManager(file))
      .map((file) => path.relative(SRC_DIR, file).split(path.sep).join('/'))
    expect(offending).toEqual([])
  })

  it.each([
    ["import { EntityManager } from '@mikro-orm/postgresql'", true],
    ['constructor(private readonly em: EntityManager) {}', true],
    ['// the EntityManager stays in repositories', false],
    ['const repositories = new Map()', false],
  ])('finds a use in %j: %s', (source, expected) => {
    expect(usesEntityManager(source)).toBe(expected)
  })
})
