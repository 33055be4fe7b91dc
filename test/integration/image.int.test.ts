import { builtinModules } from 'node:module'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { AGENT_COMMAND, AGENT_UID } from '../../operator/src/orgagent/resources'

/**
 * No Docker engine runs here, so the image is checked by reading its recipe: the Dockerfile's stages and user,
 * and that every command the chart, the operator and package.json run maps to an entry point that
 * scripts/build.mjs compiles into dist/, with the dependencies the runtime stage installs.
 */
const ROOT = path.resolve(__dirname, '../..')
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

interface Instruction {
  keyword: string
  args: string
}

interface Stage {
  from: string
  name?: string
  instructions: Instruction[]
}

/** Dockerfile instructions with continuation lines joined and comments dropped; ARG defaults applied to FROM. */
function parseDockerfile(text: string): Stage[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
  const args = new Map<string, string>()
  const stages: Stage[] = []
  for (const line of joined
    .split('\n')
    .map((raw) => raw.trim())
    .filter(Boolean)) {
    const [keyword, ...rest] = line.split(/\s+/)
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') }
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = instruction.args.split('=')
      args.set(name, value)
    } else if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args
        .replace(/\$\{(\w+)\}/g, (_match, arg: string) => args.get(arg) ?? '')
        .split(/\s+/)
      stages.push({ from: image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] })
    } else {
      const current = stages[stages.length - 1]
      if (current === undefined) throw new Error(`${instruction.keyword} before FROM`)
      current.instructions.push(instruction)
    }
  }
  return stages
}

const all = (stage: Stage, keyword: string) =>
  stage.instructions.filter((instruction) => instruction.keyword === keyword)
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1)?.args

/** The source file scripts/build.mjs compiles into `dist/<path>.js`, when it exists and the build includes it. */
function sourceOfDistFile(distFile: string): string | undefined {
  const buildScript = read('scripts/build.mjs')
  const sourcesMatch = /const sources = \[([^\]]*)\]/.exec(buildScript)
  const sources = [...(sourcesMatch?.[1] ?? '').matchAll(/'([^']+)'/g)].map((match) => match[1])
  const relative = distFile.replace(/^dist\//, '').replace(/\.js$/, '.ts')
  const isBuilt = sources.some((source) => relative.startsWith(`${source}/`)) && !relative.endsWith('.test.ts')
  return isBuilt && existsSync(path.join(ROOT, relative)) ? relative : undefined
}

/** Every `command: [...]` in the chart's templates (the programs the chart runs from the idplane image). */
/** The script a `node [options] <script>` command runs. */
const programOf = (command: readonly string[]): string => command[command.length - 1]

function chartCommands(): string[][] {
  const templates = path.join(ROOT, 'helm/idplane/templates')
  return readdirSync(templates)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => [...readFileSync(path.join(templates, file), 'utf8').matchAll(/^\s*command: (\[.*\])$/gm)])
    .map((match) => JSON.parse(match[1]) as string[])
    .filter((command) => command[0] === 'node')
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return tsFiles(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [full] : []
  })
}

const stages = parseDockerfile(read('Dockerfile'))
const runtime = stages[stages.length - 1]
const packageJson = JSON.parse(read('package.json')) as {
  version: string
  scripts: Record<string, string>
  dependencies: Record<string, string>
}

describe('Dockerfile', () => {
  it('builds on the Node version make run and make test use (scripts/ensure-node.sh), with npm ci and scripts/build.mjs', () => {
    const pinned = /^PINNED_VERSION=(24\.\d+\.\d+)$/m.exec(read('scripts/ensure-node.sh'))?.[1]
    expect(pinned).toBeDefined()
    const builder = stages.find((stage) => all(stage, 'RUN').some((run) => run.args.includes('node scripts/build.mjs')))
    expect(builder?.from).toBe(`node:${pinned}-bookworm-slim`)
    expect(builder && all(builder, 'RUN').map((run) => run.args)).toContain('npm ci --no-audit --no-fund')
    expect(stages.every((stage) => stage.from === `node:${pinned}-bookworm-slim`)).toBe(true)
  })

  it('ships production dependencies only, and dist/ from the builder', () => {
    const copies = all(runtime, 'COPY').map((copy) => copy.args)
    const depsStage = stages.find((stage) =>
      copies.some((copy) => copy.startsWith(`--from=${stage.name} /app/node_modules`)),
    )
    expect(depsStage && all(depsStage, 'RUN').some((run) => /npm ci --omit=dev\b/.test(run.args))).toBe(true)
    const builder = stages.find((stage) => copies.some((copy) => copy === `--from=${stage.name} /app/dist ./dist`))
    expect(builder).toBeDefined()
    expect(all(runtime, 'RUN').some((run) => /npm (ci|install)(?!.*--omit=dev)/.test(run.args))).toBe(false)
  })

  it('runs as the non-root uid the chart and the agent pods use, in /app', () => {
    expect(last(runtime, 'WORKDIR')).toBe('/app')
    const user = last(runtime, 'USER') ?? 'root'
    expect(user).not.toMatch(/^(root|0)(:|$)/)
    expect(user.split(':')[0]).toBe(String(AGENT_UID))
    const chartValues = parse(read('helm/idplane/values.yaml')) as { podSecurityContext: { runAsUser: number } }
    expect(chartValues.podSecurityContext.runAsUser).toBe(AGENT_UID)
  })

  it('copies every directory the build compiles, and .dockerignore keeps them in the context', () => {
    const builder = stages.find((stage) => all(stage, 'RUN').some((run) => run.args.includes('node scripts/build.mjs')))
    const copied = (builder ? all(builder, 'COPY') : []).flatMap((copy) => copy.args.split(/\s+/).slice(0, -1))
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
    for (const needed of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'scripts/',
      'common/',
      'api/',
      'agent/',
      'operator/',
    ]) {
      expect(copied).toContain(needed)
      expect(ignored).not.toContain(needed.replace(/\/$/, ''))
    }
  })
})

describe('entry points of the image', () => {
  const defaultCommand = JSON.parse(last(runtime, 'CMD') ?? '[]') as string[]
  const commands: [string, string[]][] = [
    ['the Dockerfile CMD', defaultCommand],
    ...chartCommands().map((command): [string, string[]] => [`the chart (${programOf(command)})`, command]),
    ['the operator agent pods (AGENT_COMMAND)', AGENT_COMMAND],
    ...['api', 'operator', 'agent'].map((script): [string, string[]] => [
      `npm run ${script}`,
      packageJson.scripts[script].split(' '),
    ]),
  ]

  it('includes the three programs in the chart and the operator', () => {
    const programs = [...chartCommands(), AGENT_COMMAND].map(programOf).sort()
    expect(programs).toEqual(['dist/agent/src/main.js', 'dist/api/src/main.js', 'dist/operator/src/main.js'])
    expect(defaultCommand).toEqual(['node', 'dist/api/src/main.js'])
  })

  it.each(commands)('%s runs a file scripts/build.mjs produces', (_where, command) => {
    expect(command[0]).toBe('node')
    const program = programOf(command)
    expect(sourceOfDistFile(program)).toBe(program.replace(/^dist\//, '').replace(/\.js$/, '.ts'))
  })

  it('tags the chart default image with the version of package.json', () => {
    const chart = parse(read('helm/idplane/Chart.yaml')) as { appVersion: string }
    expect(chart.appVersion).toBe(packageJson.version)
  })

  it('has every package the programs import in dependencies (the runtime stage installs no devDependencies)', () => {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))
    const missing = new Set<string>()
    for (const file of ['api/src', 'agent/src', 'operator/src', 'common'].flatMap((dir) =>
      tsFiles(path.join(ROOT, dir)),
    )) {
      const text = readFileSync(file, 'utf8')
      // import/export ... from 'x', import 'x' (side effects), import('x'), require('x'), require.resolve('x')
      const specifiers = text.matchAll(
        /(?:^|\s)(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|(?:require(?:\.resolve)?|import)\(\s*[`']([^`'$]+)/gm,
      )
      for (const match of specifiers) {
        const specifier = match[1] ?? match[2] ?? match[3]
        if (specifier.startsWith('.') || specifier.startsWith('@idplane/') || builtins.has(specifier.split('/')[0]))
          continue
        if (/^import\s+type\s/.test(match[0].trim())) continue
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]
        if (!(name in packageJson.dependencies)) missing.add(`${name} (${path.relative(ROOT, file)})`)
      }
    }
    expect([...missing]).toEqual([])
  })
})
