import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { transformFile } from '@swc/core'

const ROOT = path.join(__dirname, '..', '..')

export interface CompiledProgram {
  dir: string
  main: string
  remove(): void
}

/**
 * Compiles common/ and one program's sources into a private directory under data/, for tests that run the real
 * program as a process: the shared dist/ belongs to the build, and inside the repository node_modules resolve.
 * Same swc options as scripts/build.mjs.
 * @throws when the sources do not compile
 */
export async function compileProgram(program: 'agent' | 'operator'): Promise<CompiledProgram> {
  const { swcOptions } = createRequire(__filename)(path.join(ROOT, 'scripts', 'swc-options.cjs')) as {
    swcOptions: (options: { forBuild: boolean }) => object
  }
  mkdirSync(path.join(ROOT, 'data'), { recursive: true })
  const dir = mkdtempSync(path.join(ROOT, 'data', `test-${program}-build-`))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    for (const relative of [...sourceFiles('common'), ...sourceFiles(path.join(program, 'src'))]) {
      const target = path.join(dir, relative.replace(/\.ts$/, '.js'))
      const { code } = await transformFile(path.join(ROOT, relative), {
        ...swcOptions({ forBuild: true }),
        sourceMaps: false,
        filename: path.join(ROOT, relative),
        outputPath: target,
      })
      mkdirSync(path.dirname(target), { recursive: true })
      writeFileSync(target, code)
    }
    const assets = path.join(ROOT, program, 'src', 'assets')
    if (existsSync(assets)) cpSync(assets, path.join(dir, program, 'src', 'assets'), { recursive: true })
  } catch (error) {
    remove()
    throw error
  }
  return { dir, main: path.join(dir, program, 'src', 'main.js'), remove }
}

function sourceFiles(relative: string): string[] {
  return readdirSync(path.join(ROOT, relative), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(path.join(relative, entry.name))
      : /\.ts$/.test(entry.name) && !/\.(test|fakes|d)\.ts$/.test(entry.name)
        ? [path.join(relative, entry.name)]
        : [],
  )
}
