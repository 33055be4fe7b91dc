import { execFileSync } from 'node:child_process'
import path from 'node:path'

/**
 * The large parts a program loads only when it needs them stay out of its start (docs/benchmarks.md, "Program start"):
 * `@kubernetes/client-node` (about a thousand modules) only for AGENT_RUNTIME=kubernetes, `@credo-ts/openid4vc` only
 * for an agent with OpenID4VC enabled. Each check loads the built modules in a fresh Node and lists every package
 * required meanwhile (build first).
 */
const ROOT = path.resolve(__dirname, '../..')

function packagesRequiredBy(modules: string[]): string[] {
  const script = `
    const Module = require('node:module')
    const seen = new Set()
    const load = Module._load
    Module._load = function (request, ...rest) {
      const name = /^(@[^/]+\\/[^/]+|[^./][^/]*)/.exec(request)
      if (name && !request.startsWith('node:')) seen.add(name[1])
      return load.call(this, request, ...rest)
    }
    for (const file of ${JSON.stringify(modules)}) require(require('node:path').resolve(file))
    process.stdout.write(JSON.stringify([...seen]))
  `
  const output = execFileSync(process.execPath, ['-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  })
  return JSON.parse(output) as string[]
}

describe('what a program loads at its start', () => {
  it('the API loads no Kubernetes client until the kubernetes runtime is chosen', () => {
    const atStart = packagesRequiredBy(['dist/api/src/container.js', 'dist/api/src/app.js'])
    expect(atStart).toEqual(expect.arrayContaining(['@mikro-orm/core', 'express']))
    expect(atStart).not.toContain('@kubernetes/client-node')
    // The check sees an ES module required from our CommonJS: the runtime itself does load it.
    expect(packagesRequiredBy(['dist/api/src/agent-runtime/kubernetes-runtime.js'])).toContain(
      '@kubernetes/client-node',
    )
  }, 60_000)

  it('an agent loads no OpenID4VC module until OpenID4VC is enabled', () => {
    const atStart = packagesRequiredBy(['dist/agent/src/agent-process.js'])
    expect(atStart).toEqual(expect.arrayContaining(['@credo-ts/core', '@credo-ts/didcomm']))
    expect(atStart).not.toContain('@credo-ts/openid4vc')
    expect(packagesRequiredBy(['dist/agent/src/openid4vc/openid4vc.module.js'])).toContain('@credo-ts/openid4vc')
  }, 60_000)
})
