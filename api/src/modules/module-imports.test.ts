import 'reflect-metadata'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { API_MODULES } from '.'

const MODULES_DIR = __dirname
const AGENT_CLIENT_DIR = path.resolve(__dirname, '..', 'agent-client')
/** The API's one client of the agents: modules use it, and it may use nothing of theirs (but the exception below). */
const AGENT_CLIENT = 'agent-client'

/**
 * Imports that break the order and are known. Each names the issue that removes it; the test fails once it is gone,
 * so the entry goes with it.
 */
const KNOWN_EXCEPTIONS: readonly { from: string; to: string; why: string }[] = []

/** Every TypeScript file under a folder, tests included. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

/** Relative specifiers of static (type-only included) imports, re-exports, dynamic imports and requires. */
function relativeSpecifiers(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.[^'"]*)['"]/gm
  return [...source.matchAll(pattern)].flatMap((match) => (match[1] ? [match[1]] : []))
}

/** The folder (module folder or agent-client) a path lies in; undefined outside them or at the top of modules/. */
function folderOf(file: string): string | undefined {
  if (file === AGENT_CLIENT_DIR || file.startsWith(`${AGENT_CLIENT_DIR}${path.sep}`)) return AGENT_CLIENT
  const relative = path.relative(MODULES_DIR, file)
  const parts = relative.split(path.sep)
  if (parts[0] === '..' || parts.length < 2) return undefined
  return parts[0]
}

interface FolderImport {
  from: string
  to: string
  /** `file imports specifier`, for the failure message. */
  site: string
}

/** Imports from one folder into another, found in the given files. */
function folderImports(files: { file: string; source: string }[]): FolderImport[] {
  return files.flatMap(({ file, source }) => {
    const from = folderOf(file)
    if (!from) return []
    return relativeSpecifiers(source).flatMap((specifier) => {
      const to = folderOf(path.resolve(path.dirname(file), specifier))
      if (!to || to === from) return []
      return [{ from, to, site: `${path.relative(path.dirname(MODULES_DIR), file)} imports ${specifier}` }]
    })
  })
}

/** The folders on a cycle of the graph, each cycle once as a path (`a -> b -> a`). */
function cyclesOf(edges: readonly FolderImport[]): string[] {
  const next = new Map<string, Set<string>>()
  for (const edge of edges) next.set(edge.from, (next.get(edge.from) ?? new Set()).add(edge.to))
  const cycles = new Set<string>()
  const visit = (node: string, trail: string[]): void => {
    const at = trail.indexOf(node)
    if (at >= 0) {
      const cycle = trail.slice(at)
      // One spelling per cycle: start at its smallest folder name.
      const start = cycle.indexOf([...cycle].sort()[0] as string)
      const rotated = [...cycle.slice(start), ...cycle.slice(0, start)]
      cycles.add([...rotated, rotated[0]].join(' -> '))
      return
    }
    for (const target of next.get(node) ?? []) visit(target, [...trail, node])
  }
  for (const node of next.keys()) visit(node, [])
  return [...cycles].sort()
}

/** Imports a folder may not make: into a module later in API_MODULES, or from agent-client into a module. */
function outOfOrder(edges: readonly FolderImport[], order: readonly string[]): FolderImport[] {
  const rank = new Map(order.map((name, index) => [name, index]))
  return edges.filter((edge) => {
    if (edge.to === AGENT_CLIENT) return false
    if (edge.from === AGENT_CLIENT) return true
    return (rank.get(edge.to) ?? Infinity) >= (rank.get(edge.from) ?? -Infinity)
  })
}

const isKnown = (edge: { from: string; to: string }) =>
  KNOWN_EXCEPTIONS.some((known) => known.from === edge.from && known.to === edge.to)

describe('module folders (modules/*) and agent-client', () => {
  const files = [...sourceFiles(MODULES_DIR), ...sourceFiles(AGENT_CLIENT_DIR)].map((file) => ({
    file,
    source: readFileSync(file, 'utf8'),
  }))
  const edges = folderImports(files)
  const order = API_MODULES.map((module) => module.name)

  it('are each one module of API_MODULES, named as its folder', () => {
    const folders = readdirSync(MODULES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
    expect(folders.length).toBeGreaterThan(20)
    expect([...order].sort()).toEqual(folders)
  })

  it('import only modules declared before them in API_MODULES (agent-client: none)', () => {
    expect(edges.length).toBeGreaterThan(50)
    const offending = outOfOrder(edges, order)
      .filter((edge) => !isKnown(edge))
      .map((edge) => `${edge.from} -> ${edge.to}: ${edge.site}`)
    expect(offending).toEqual([])
  })

  it('form no cycle but the known exceptions', () => {
    expect(cyclesOf(edges.filter((edge) => !isKnown(edge)))).toEqual([])
  })

  it('still make each known exception (remove the entry with the import)', () => {
    for (const known of KNOWN_EXCEPTIONS) {
      expect({ ...known, present: edges.some((edge) => edge.from === known.from && edge.to === known.to) }).toEqual({
        ...known,
        present: true,
      })
    }
  })

  it('the scan finds out-of-order imports and cycles where there are some', () => {
    const file = path.join(MODULES_DIR, 'orgs', 'orgs.service.ts')
    const sample = folderImports([
      {
        file,
        source:
          "import type { X } from '../webhooks/webhooks.service'\nimport { Y } from '../../agent-client/agent-client'\n" +
          "const z = require('./orgs.repository')\n",
      },
      { file: path.join(MODULES_DIR, 'webhooks', 'webhooks.service.ts'), source: "import { O } from '../orgs/x'\n" },
      { file: path.join(AGENT_CLIENT_DIR, 'agent-client.ts'), source: "import { W } from '../modules/webhooks/y'\n" },
    ])
    expect(sample.map(({ from, to }) => `${from} -> ${to}`)).toEqual([
      'orgs -> webhooks',
      'orgs -> agent-client',
      'webhooks -> orgs',
      'agent-client -> webhooks',
    ])
    expect(outOfOrder(sample, ['orgs', 'webhooks']).map(({ from, to }) => `${from} -> ${to}`)).toEqual([
      'orgs -> webhooks',
      'agent-client -> webhooks',
    ])
    expect(cyclesOf(sample)).toEqual(['agent-client -> webhooks -> orgs -> agent-client', 'orgs -> webhooks -> orgs'])
  })
})
