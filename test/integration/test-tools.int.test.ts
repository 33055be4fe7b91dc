import { execFile, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../helpers/ports'
import { kubeTool } from '../helpers/real-kube-apiserver'
import { isCiRun, requireTools } from '../helpers/test-tools'
import { TEST_DATABASE_URL, testAgentSchema } from '../helpers/test-schema'

const execFileAsync = promisify(execFile)
const ROOT = path.join(__dirname, '..', '..')

/** Issue 8, item 18: a CI run fails when a test tool is missing; elsewhere the suite says SKIP and skips. */
describe('test tools on CI and elsewhere', () => {
  let dir: string

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'idplane-tools-'))
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads CI=true and CI=1 as a CI run, and unset, empty, 0 or false as not', () => {
    expect([isCiRun({ CI: 'true' }), isCiRun({ CI: '1' }), isCiRun({ CI: 'TRUE' })]).toEqual([true, true, true])
    expect([isCiRun({}), isCiRun({ CI: '' }), isCiRun({ CI: '0' }), isCiRun({ CI: 'false' })]).toEqual([
      false,
      false,
      false,
      false,
    ])
  })

  it('fails a CI run when a tool is missing, naming it', () => {
    expect(() => requireTools('some suite', () => ['helm (scripts/fetch-helm.sh)'], { CI: 'true' })).toThrow(
      /some suite: not installed: helm \(scripts\/fetch-helm\.sh\)/,
    )
  })

  it('prints one SKIP line outside CI, and runs when nothing is missing', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      expect(requireTools('some suite', () => ['helm'], {})).toBe(false)
      expect(warn.mock.calls).toEqual([['SKIP some suite: not installed: helm']])
      expect(requireTools('some suite', () => [], { CI: 'true' })).toBe(true)
      expect(warn).toHaveBeenCalledTimes(1)
    } finally {
      warn.mockRestore()
    }
  })

  it('asks what is missing only once the background installation named by IDPLANE_TEST_TOOLS_PENDING ended', () => {
    const pending = path.join(dir, 'tools.pending')
    writeFileSync(pending, '')
    // Another process ends the installation: the wait blocks this one's event loop.
    spawn('sh', ['-c', `sleep 1.5; rm -f '${pending}'`], { stdio: 'ignore' }).unref()
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const started = Date.now()
      let askedAt = 0
      const runs = requireTools('some suite', () => ((askedAt = Date.now()), []), {
        IDPLANE_TEST_TOOLS_PENDING: pending,
      })
      expect(runs).toBe(true)
      expect(askedAt - started).toBeGreaterThanOrEqual(1_000)
      expect(warn.mock.calls).toEqual([[`some suite: waiting for the test tools being installed (${pending})`]])
    } finally {
      warn.mockRestore()
    }
  })

  it('orders suites by recorded duration where jest has none, and the tool suites last while tools install', () => {
    const env = { ...process.env }
    const durations = path.join(dir, 'durations.json')
    const pending = path.join(dir, 'order.pending')
    const suite = (relative: string, size: number) => ({
      path: path.join(ROOT, relative),
      context: { config: { cache: false, id: 'order' }, hasteFS: { getSize: () => size } },
    })
    const order = (): string[] => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const Sequencer = require('../jest/sequencer.cjs') as new () => { sort(tests: unknown[]): { path: string }[] }
      const tests = [
        suite('test/integration/small-file-long-run.int.test.ts', 10),
        suite('test/k8s/cluster.k8s.test.ts', 20),
        suite('test/integration/big-file-short-run.int.test.ts', 90),
        suite('test/integration/unrecorded.int.test.ts', 50),
      ]
      return new Sequencer().sort(tests).map((test) => path.relative(ROOT, test.path))
    }
    try {
      writeFileSync(
        durations,
        JSON.stringify({
          'test/integration/small-file-long-run.int.test.ts': 120,
          'test/k8s/cluster.k8s.test.ts': 60,
          'test/integration/big-file-short-run.int.test.ts': 2,
        }),
      )
      process.env.JEST_DURATIONS_FILE = durations
      process.env.IDPLANE_TEST_TOOLS_PENDING = pending
      // Jest runs a suite it has no timing for first (a new one), then the timed ones slowest first.
      expect(order()).toEqual([
        'test/integration/unrecorded.int.test.ts',
        'test/integration/small-file-long-run.int.test.ts',
        'test/k8s/cluster.k8s.test.ts',
        'test/integration/big-file-short-run.int.test.ts',
      ])
      writeFileSync(pending, '')
      expect(order()).toEqual([
        'test/integration/unrecorded.int.test.ts',
        'test/integration/small-file-long-run.int.test.ts',
        'test/integration/big-file-short-run.int.test.ts',
        'test/k8s/cluster.k8s.test.ts',
      ])
    } finally {
      process.env = env
    }
  })

  it('finds kubectl on PATH when the cache has none', () => {
    const bin = path.join(dir, 'bin')
    mkdirSync(bin)
    const kubectl = path.join(bin, 'kubectl')
    writeFileSync(kubectl, '#!/bin/sh\nexit 0\n')
    chmodSync(kubectl, 0o755)
    const env = { IDPLANE_CACHE: path.join(dir, 'empty-cache'), PATH: `/nonexistent${path.delimiter}${bin}` }
    expect(kubeTool('kubectl', env)).toBe(kubectl)
    expect(kubeTool('helm', env)).toBeUndefined()
  })

  it('fails the explorer browser test on CI when chromium is missing', async () => {
    const run = execFileAsync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', 'test/e2e/explorer.e2e.test.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          CI: 'true',
          CHROMIUM_PATH: path.join(dir, 'no-chromium'),
          IDPLANE_TEST_TOOLS_PENDING: '',
        },
      },
    )
    const failure = (await run.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | undefined
    expect(failure?.code).toBe(1)
    expect(failure?.stderr).toContain('explorer browser test: not installed: chromium at')
    expect(failure?.stderr).not.toContain('SKIP explorer')
  }, 120_000)
})

describe('free ports for test processes', () => {
  // Drawn at random from 6,500 ports, 300 ports repeat one with a chance of about 99.9 % unless the helper remembers
  // what it gave: a port handed out and not yet listened on looks free.
  it('never hands out the same port twice in one process', async () => {
    const ports: number[] = []
    for (let index = 0; index < 300; index++) ports.push(await freePort())
    expect(new Set(ports).size).toBe(ports.length)
  })
})

describe("test agents' PostgreSQL schemas", () => {
  const databaseUrl = process.env.DATABASE_URL ?? TEST_DATABASE_URL

  it('are dropped by make test once their test process has ended, and kept while it runs', async () => {
    const { Client } = await import('pg')
    const ended = spawn(process.execPath, ['-e', '0'])
    const endedPid = await new Promise<number>((resolve) => ended.once('exit', () => resolve(ended.pid ?? 0)))
    const gone = `agent_t${endedPid}_gone_${Date.now()}`
    const kept = testAgentSchema(`kept_${Date.now()}`)
    const client = new Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      for (const schema of [gone, kept]) await client.query(`create schema "${schema}"`)
      await execFileAsync(process.execPath, ['scripts/drop-test-agent-schemas.cjs'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
      })
      const { rows } = await client.query<{ nspname: string }>(
        'select nspname from pg_namespace where nspname = any($1::text[]) order by nspname',
        [[gone, kept]],
      )
      expect(rows.map((row) => row.nspname)).toEqual([kept])
    } finally {
      for (const schema of [gone, kept]) await client.query(`drop schema if exists "${schema}" cascade`)
      await client.end()
    }
  })
})
