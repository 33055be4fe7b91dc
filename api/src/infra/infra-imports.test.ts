import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const INFRA_DIR = __dirname
const MODULES_DIR = path.resolve(__dirname, '..', 'modules')

/** Every TypeScript file under infra/, tests included. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

/** Relative specifiers of static imports, re-exports, dynamic imports and requires. */
function relativeSpecifiers(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.[^'"]*)['"]/gm
  return [...source.matchAll(pattern)].flatMap((match) => (match[1] ? [match[1]] : []))
}

describe('infra/', () => {
  const files = sourceFiles(INFRA_DIR)

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(20)
  })

  it('imports nothing from modules/ (modules depend on infra, never back)', () => {
    const offending = files.flatMap((file) =>
      relativeSpecifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => {
          const target = path.resolve(path.dirname(file), specifier)
          return target === MODULES_DIR || target.startsWith(`${MODULES_DIR}${path.sep}`)
        })
        .map((specifier) => `${path.relative(INFRA_DIR, file)} imports ${specifier}`),
    )
    expect(offending).toEqual([])
  })

  it('the scan finds an import of modules/ where there is one', () => {
    const file = path.join(INFRA_DIR, 'db', 'example.ts')
    const specifiers = relativeSpecifiers(
      "import { User } from '../../modules/users/user.entity'\nconst x = require('../../modules/index')\n",
    )
    expect(specifiers.map((specifier) => path.resolve(path.dirname(file), specifier))).toEqual([
      path.join(MODULES_DIR, 'users', 'user.entity'),
      path.join(MODULES_DIR, 'index'),
    ])
  })
})
