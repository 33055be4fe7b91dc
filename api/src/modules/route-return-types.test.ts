import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const MODULES_DIR = __dirname

/** Routes still without a declared return type, by `<file relative to modules/>#<method>` (none: keep it so). */
const KNOWN_UNTYPED: readonly string[] = []

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return controllerFiles(full)
    return entry.name.endsWith('.controller.ts') ? [full] : []
  })
}

/** `method: hasReturnType` for every method under a route decorator (@Get, @Post, @Put, @Patch, @Delete). */
function routesOf(source: string): { method: string; isTyped: boolean }[] {
  const routes: { method: string; isTyped: boolean }[] = []
  const decorator = /\n\s*@(?:Get|Post|Put|Patch|Delete)\(/g
  // A class member sits at two spaces (prettier); deeper lines belong to a decorator's arguments (arrayOf(...)).
  const method = /\n {2}(?:public\s+)?(?:async\s+)?(\w+)\(/g
  for (let found = decorator.exec(source); found; found = decorator.exec(source)) {
    method.lastIndex = decorator.lastIndex
    const signature = method.exec(source)
    if (!signature?.[1]) break
    // The parameter list ends at the parenthesis that balances the one after the name (decorators nest some).
    let depth = 0
    let at = method.lastIndex - 1
    for (; at < source.length; at += 1) {
      if (source[at] === '(') depth += 1
      if (source[at] === ')' && --depth === 0) break
    }
    routes.push({ method: signature[1], isTyped: /^\s*:/.test(source.slice(at + 1)) })
    decorator.lastIndex = at
  }
  return routes
}

describe('routes', () => {
  const routes = controllerFiles(MODULES_DIR).flatMap((file) =>
    routesOf(readFileSync(file, 'utf8')).map((route) => ({
      ...route,
      name: `${path.relative(MODULES_DIR, file).split(path.sep).join('/')}#${route.method}`,
    })),
  )

  it('are all found (the spec has more than a hundred)', () => {
    expect(routes.length).toBeGreaterThan(100)
  })

  it('each declare their return type (STYLE.md: a route is one line with its return type)', () => {
    expect(
      routes.filter((route) => !route.isTyped && !KNOWN_UNTYPED.includes(route.name)).map((route) => route.name),
    ).toEqual([])
  })

  it('still include each known exception untyped (remove the entry once typed)', () => {
    for (const name of KNOWN_UNTYPED)
      expect(routes.find((route) => route.name === name)).toEqual(expect.objectContaining({ isTyped: false }))
  })

  it('the scan tells a typed route from an untyped one', () => {
    const source = [
      '',
      "  @Get('/:id')",
      '  @Authorized(ROLES)',
      "  async get(@Param('id') id: string, @QueryParams() q: Query): Promise<Envelope<Thing>> {",
      '  }',
      '  @Post()',
      '  create(@Body({ required: true }) body: Dto) {',
      '  }',
    ].join('\n')
    expect(routesOf(source)).toEqual([
      { method: 'get', isTyped: true },
      { method: 'create', isTyped: false },
    ])
  })
})
