import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import request from 'supertest'
import { transformFile } from '@swc/core'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

const ROOT = path.join(__dirname, '..', '..')
const hasAgent = existsSync(path.join(ROOT, 'agent', 'src', 'main.ts'))

/**
 * Compiles common/ and agent/src into a directory under data/ (the shared dist/ belongs to the build; inside
 * the repository, node_modules resolve). Undefined when the agent does not compile.
 */
async function compileAgent(): Promise<{ dir: string; main: string } | undefined> {
  const { swcOptions } = createRequire(__filename)(path.join(ROOT, 'scripts', 'swc-options.cjs')) as {
    swcOptions: (options: { forBuild: boolean }) => object
  }
  mkdirSync(path.join(ROOT, 'data'), { recursive: true })
  const dir = mkdtempSync(path.join(ROOT, 'data', 'test-agent-build-'))
  const walk = (relative: string): string[] =>
    readdirSync(path.join(ROOT, relative), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(relative, entry.name))
        : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')
          ? [path.join(relative, entry.name)]
          : [],
    )
  try {
    for (const relative of [...walk('common'), ...walk(path.join('agent', 'src'))]) {
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
    const assets = path.join(ROOT, 'agent', 'src', 'assets')
    if (existsSync(assets)) cpSync(assets, path.join(dir, 'agent', 'src', 'assets'), { recursive: true })
    return { dir, main: path.join(dir, 'agent', 'src', 'main.js') }
  } catch (error) {
    console.warn(`SKIP real agent: agent/src does not compile (${(error as Error).message})`)
    rmSync(dir, { recursive: true, force: true })
    return undefined
  }
}

/** The platform's spin-up against the real agent program (agent/), when it is there. */
;(hasAgent ? describe : describe.skip)('agent spin-up with the real agent program', () => {
  let compiled: { dir: string; main: string } | undefined
  let api: TestApi | undefined

  beforeAll(async () => {
    compiled = await compileAgent()
    if (!compiled) return
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '90',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: '18201,19201',
    })
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
    if (compiled) rmSync(compiled.dir, { recursive: true, force: true })
  }, 60_000)

  it('reaches DID_CREATED and lists the DID as primary', async () => {
    if (!api) return
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const created = await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Real agent', method: 'key' })
    expect(created.status).toBe(201)
    const deadline = Date.now() + 110_000
    let agent: Record<string, unknown> = {}
    while (Date.now() < deadline) {
      const health = await request(api.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      agent = health.body.data as Record<string, unknown>
      if (agent.status === 'DID_CREATED' || agent.status === 'FAILED') break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(agent).toMatchObject({
      status: 'DID_CREATED',
      failureReason: null,
      controllerEndpoint: 'http://127.0.0.1:18202',
      isAnswering: true,
    })
    const dids = await request(api.app).get(`/v1/orgs/${orgId}/dids`).set('Authorization', `Bearer ${owner.token}`)
    expect(dids.body.data).toEqual([
      expect.objectContaining({ did: expect.stringMatching(/^did:key:z6Mk/), isPrimaryDid: true }),
    ])
  }, 150_000)
})
