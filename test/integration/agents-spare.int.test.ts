import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { AGENT_COMMAND_LINE_OPTIONS } from '../../common/agent-node-options'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { startApi, type TestApi } from '../helpers/api'
import { waitUntil } from '../helpers/agent-process'
import { isRunning, pidListeningOn } from '../helpers/api-process'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { claimAgentPorts } from '../helpers/ports'

/**
 * Issue 27 item 4: the process runtime keeps a spare agent process with its modules loaded (AGENT_SPARES), and the
 * next organization's agent is that process (docs/decisions.md, "A spare agent process ahead of need"). Real agent
 * program, real processes; the path (PGlite or PostgreSQL) is the environment's.
 */

/**
 * This process's children that are spares: agent processes (every one starts with AGENT_SPARE=1 in its environment,
 * which /proc keeps as it was at the start) that do not listen on ports. An agent still starting looks the same for
 * its first seconds, so callers look once every launch has answered.
 */
function sparesOfThisProcess(): number[] {
  const listening = new Set(
    [...execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' }).matchAll(/pid=(\d+)/g)].map((match) => Number(match[1])),
  )
  const spares: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent !== process.pid || listening.has(Number(entry))) continue
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes('AGENT_SPARE=1')) {
        spares.push(Number(entry))
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return spares
}

/** The agent keys in the environment the process `pid` was started with (/proc shows it to the same user). */
function keysInEnvironmentOf(pid: number | undefined): string[] {
  if (pid === undefined) throw new Error('No process listens on the agent port')
  const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
  return environment.filter((entry) => /^AGENT_(API_KEY|WALLET_KEY|EVENT_TOKEN|DATABASE_URL)=/.test(entry))
}

/** The Node options before the program on the command line of process `pid`. */
function nodeOptionsOf(pid: number | undefined): string[] {
  if (pid === undefined) throw new Error('No process listens on the agent port')
  const [, ...afterNode] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  return afterNode.slice(
    0,
    afterNode.findIndex((argument) => !argument.startsWith('-')),
  )
}

async function oneSpare(other?: number): Promise<number> {
  return waitUntil(async () => sparesOfThisProcess().find((pid) => pid !== other), 60_000)
}

interface AgentBody {
  status: string
  failureReason: string | null
  adminPort: number | null
}

/** Spins up a new organization's agent through `api` and waits for DID_CREATED or FAILED; its health body. */
async function spunUp(api: TestApi, owner: TestUser, label: string): Promise<AgentBody & { orgId: string }> {
  const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  await request(api.app)
    .post(`/v1/orgs/${orgId}/agents/spinup`)
    .set('Authorization', `Bearer ${owner.token}`)
    .send({ label, method: 'key' })
    .expect(201)
  const agent = await waitUntil(async () => {
    const health = await request(api.app)
      .get(`/v1/orgs/${orgId}/agents/health`)
      .set('Authorization', `Bearer ${owner.token}`)
    const body = health.body.data as AgentBody
    return body.status === 'DID_CREATED' || body.status === 'FAILED' ? body : undefined
  }, 110_000)
  return { ...agent, orgId }
}

describe('a spare agent process ahead of need (AGENT_SPARES=1)', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi | undefined
  let owner: TestUser
  const running = (): TestApi => {
    if (!api) throw new Error('The API did not start (see beforeAll)')
    return api
  }
  const spareDir = () => path.join(running().config.agents.dataDir, '.spares')
  const isEmbedded = () => running().config.database.kind !== 'postgres'

  /** Spins up a new organization's agent and expects DID_CREATED; its id and admin port. */
  async function provisioned(label: string): Promise<{ orgId: string; adminPort: number }> {
    const agent = await spunUp(running(), owner, label)
    expect(agent).toMatchObject({ status: 'DID_CREATED', failureReason: null })
    return { orgId: agent.orgId, adminPort: agent.adminPort ?? 0 }
  }

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '90',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      AGENT_SPARES: '1',
    })
    owner = await aUserWithToken(api)
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
    compiled?.remove()
  }, 60_000)

  it('loads a spare after the first launch, makes it the next organization’s agent, then loads another', async () => {
    expect(sparesOfThisProcess()).toEqual([])
    const first = await provisioned('First')
    // No spare yet: a new process, which took its settings over the pipe as a spare does.
    expect(keysInEnvironmentOf(pidListeningOn(first.adminPort))).toEqual([])
    const spare = await oneSpare()
    // Both ways of starting an agent give it the shipped Node and V8 options (V8's only on the command line).
    expect(nodeOptionsOf(pidListeningOn(first.adminPort))).toEqual([...AGENT_COMMAND_LINE_OPTIONS])
    expect(nodeOptionsOf(spare)).toEqual([...AGENT_COMMAND_LINE_OPTIONS])
    if (isEmbedded()) {
      // The template's copy is made ahead of need, in the spare's own folder.
      await waitUntil(async () => (existsSync(path.join(spareDir(), String(spare))) ? true : undefined), 30_000)
    }
    const second = await provisioned('Second')
    expect(pidListeningOn(second.adminPort)).toBe(spare)
    expect(sparesOfThisProcess()).not.toContain(spare)
    if (isEmbedded()) {
      expect(existsSync(path.join(running().config.agents.dataDir, second.orgId, 'pgdata', 'PG_VERSION'))).toBe(true)
      expect(existsSync(path.join(spareDir(), String(spare)))).toBe(false)
    }
    const next = await oneSpare(spare)
    expect(next).not.toBe(spare)
    // Its settings came over the pipe: the keys are not in its environment, which /proc shows to its user.
    expect(keysInEnvironmentOf(spare)).toEqual([])
    // The launched spare is an organization's agent like any other: it answers with that organization's key only.
    const agent = await request(`http://127.0.0.1:${second.adminPort}`).get('/agent')
    expect(agent.status).toBe(200)
    const otherKey = await request(`http://127.0.0.1:${second.adminPort}`)
      .get('/agent')
      .set('Authorization', 'another-organizations-key-0123456789')
    expect(otherKey.status).toBe(401)
  }, 300_000)

  it('starts the agent itself when its spare died, and removes what that spare left', async () => {
    const spare = await oneSpare()
    process.kill(spare, 'SIGKILL')
    await waitUntil(async () => (isRunning(spare) ? undefined : true), 30_000)
    // What a spare killed with its API would leave (no process has this pid: above the kernel's largest).
    const leftover = path.join(spareDir(), '4194399')
    mkdirSync(path.join(leftover, 'pgdata.copying-4194399'), { recursive: true })
    const third = await provisioned('Third')
    expect(pidListeningOn(third.adminPort)).not.toBe(spare)
    expect(existsSync(path.join(spareDir(), String(spare)))).toBe(false)
    expect(existsSync(leftover)).toBe(false)
  }, 300_000)

  it('stops its spare with the API', async () => {
    const spare = await oneSpare()
    await running().stop()
    api = undefined
    expect(isRunning(spare)).toBe(false)
  }, 120_000)
})

describe('a spare agent process on its own', () => {
  let compiled: CompiledProgram | undefined
  let dir: string

  beforeAll(async () => {
    compiled = await compileProgram('agent')
  }, 120_000)
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'agent-spare-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  afterAll(() => compiled?.remove())

  function startSpare(): { child: ReturnType<typeof spawn>; exit: Promise<number | null>; stderr: () => string } {
    const child = spawn(process.execPath, [compiled?.main ?? ''], {
      env: { PATH: process.env.PATH ?? '', AGENT_SPARE: '1', AGENT_SPARE_DIR: path.join(dir, '.spares') },
      stdio: ['pipe', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    return { child, exit, stderr: () => stderr }
  }

  it('exits when its supervisor’s pipe closes before a launch, and leaves no staging folder', async () => {
    const { child, exit } = startSpare()
    child.stdin?.end()
    await expect(exit).resolves.toBe(0)
    expect(readdirSync(path.join(dir, '.spares'), { withFileTypes: true }).map((entry) => entry.name)).toEqual([])
  }, 60_000)

  it('refuses a malformed launch line with a message, and one that is not a valid configuration', async () => {
    const malformed = startSpare()
    malformed.child.stdin?.write('{"AGENT_ADMIN_PORT": 8020}\n')
    await expect(malformed.exit).resolves.toBe(2)
    expect(malformed.stderr()).toContain("Spare agent: The launch line's AGENT_ADMIN_PORT is not a string")
    const invalid = startSpare()
    invalid.child.stdin?.write('{"AGENT_API_KEY": "short"}\n')
    await expect(invalid.exit).resolves.toBe(2)
    expect(invalid.stderr()).toContain('AGENT_API_KEY')
    expect(invalid.stderr()).not.toContain('short')
  }, 60_000)
})

/** How long the stand-in below must have waited for its line to act as a spare. */
const SPARE_WAITED_MS = 1_000

describe('a spare that dies as it is launched', () => {
  const programs = writeFakeAgentPrograms(tmpdir())
  let api: TestApi | undefined
  let entrypoint: string

  beforeAll(async () => {
    // Every agent starts waiting for its launch line. This one dies as it gets a line it waited for (a spare, killed
    // just as it is taken); a line there at its start (a new process) makes it the fake agent.
    entrypoint = path.join(path.dirname(programs.path('healthy')), 'dies-as-spare.js')
    writeFileSync(
      entrypoint,
      [
        `const startedAt = Date.now()`,
        `let line = ''`,
        `process.stdin.setEncoding('utf8')`,
        `process.stdin.on('data', (chunk) => {`,
        `  if (Date.now() - startedAt > ${SPARE_WAITED_MS}) process.exit(3)`,
        `  line += chunk`,
        `  if (!line.includes('\\n')) return`,
        `  process.stdin.removeAllListeners('data')`,
        `  process.stdin.pause()`,
        `  delete process.env.AGENT_SPARE`,
        `  Object.assign(process.env, JSON.parse(line))`,
        `  require(${JSON.stringify(programs.path('healthy'))})`,
        `})`,
      ].join('\n'),
    )
    api = await startApi({
      AGENT_ENTRYPOINT: entrypoint,
      AGENT_POLL_ATTEMPTS: '30',
      AGENT_POLL_INTERVAL_MS: '200',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      AGENT_SPARES: '1',
    })
  }, 60_000)

  afterAll(async () => {
    await api?.stop()
    programs.remove()
  }, 60_000)

  it('starts the agent afresh, and the organization does not fail', async () => {
    if (!api) throw new Error('The API did not start (see beforeAll)')
    const running = api
    const owner = await aUserWithToken(running)
    const spinUp = (label: string) => spunUp(running, owner, label)
    expect(await spinUp('First')).toMatchObject({ status: 'DID_CREATED' })
    const spare = await oneSpare()
    // Long enough that the stand-in knows it waited as a spare.
    await new Promise((resolve) => setTimeout(resolve, SPARE_WAITED_MS * 2))
    const second = await spinUp('Second')
    expect(second).toMatchObject({ status: 'DID_CREATED', failureReason: null })
    expect(isRunning(spare)).toBe(false)
    expect(pidListeningOn(second.adminPort ?? 0)).not.toBe(spare)
  }, 120_000)
})
