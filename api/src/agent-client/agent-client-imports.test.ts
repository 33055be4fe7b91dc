import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * agent-client asks the agents module through its AgentEndpointLookup port and imports nothing of the modules, so
 * the two folders form no cycle (issue 24, item 4). Tests included: they are part of the folder.
 */
describe('agent-client/', () => {
  it('imports nothing from modules/', () => {
    const files = readdirSync(__dirname).filter((name) => name.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(5)
    const offending = files.flatMap((name) =>
      [...readFileSync(path.join(__dirname, name), 'utf8').matchAll(/from\s*'([^']*)'/g)]
        .map((match) => match[1] ?? '')
        .filter((specifier) => specifier.startsWith('.') && /(^|\/)modules(\/|$)/.test(specifier))
        .map((specifier) => `${name} imports ${specifier}`),
    )
    expect(offending).toEqual([])
  })
})
