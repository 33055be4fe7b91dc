// Compiles every program's TypeScript to dist/ with swc (about a second; `npm run typecheck` is the type gate).
import { readdirSync, mkdirSync, writeFileSync, existsSync, rmSync, readFileSync, renameSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import swc from '@swc/core'

const require = createRequire(import.meta.url)
const { swcOptions, root } = require('./swc-options.cjs')
const sources = ['common', 'api/src', 'agent/src', 'operator/src']
const outRoot = path.join(root, 'dist')

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* tsFiles(full)
    else if (entry.name.endsWith('.ts') && !/\.(test|fakes|d)\.ts$/.test(entry.name)) yield full
  }
}

// Agents and APIs start from dist/ while a build runs (test suites rebuild in their setup, beside suites that start
// programs): each file is replaced whole (written beside it, then renamed over it), and only when its content changed,
// so a starting program reads the old file or the new one, never a half-written one (which failed a start with "Class
// extends value undefined"). Stale files are pruned afterwards; the directory never vanishes mid-build.
function replaceIfChanged(target, content) {
  const bytes = Buffer.from(content)
  if (existsSync(target) && readFileSync(target).equals(bytes)) return
  const temporary = `${target}.${process.pid}.tmp`
  writeFileSync(temporary, bytes)
  renameSync(temporary, target)
}

const written = new Set()
let count = 0
for (const source of sources) {
  const dir = path.join(root, source)
  if (!existsSync(dir)) continue
  for (const file of tsFiles(dir)) {
    const relative = path.relative(root, file)
    const target = path.join(outRoot, relative.replace(/\.ts$/, '.js'))
    const { code, map } = await swc.transformFile(file, {
      ...swcOptions({ forBuild: true }),
      filename: file,
      outputPath: target,
    })
    mkdirSync(path.dirname(target), { recursive: true })
    replaceIfChanged(target, code + `\n//# sourceMappingURL=${path.basename(target)}.map`)
    if (map) replaceIfChanged(target + '.map', map)
    written.add(target).add(target + '.map')
    count++
  }
}
// Non-code assets programs read at run time (bundled JSON-LD contexts, OpenAPI extras) travel with the code.
for (const asset of ['agent/src/assets']) {
  if (!existsSync(path.join(root, asset))) continue
  for (const file of allFiles(path.join(root, asset))) {
    const target = path.join(outRoot, path.relative(root, file))
    mkdirSync(path.dirname(target), { recursive: true })
    replaceIfChanged(target, readFileSync(file))
  }
}
for (const source of sources) {
  const dir = path.join(outRoot, source)
  if (!existsSync(dir)) continue
  for (const file of allFiles(dir)) {
    if ((file.endsWith('.js') || file.endsWith('.js.map')) && !written.has(file)) rmSync(file)
  }
}
console.log(`built ${count} files into dist/`)

function* allFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* allFiles(full)
    else yield full
  }
}

// The web console last: its client types come from the API just compiled (scripts/build-console.mjs).
if (!process.argv.includes('--no-console')) {
  const { buildConsole } = await import('./build-console.mjs')
  await buildConsole()
}
