import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { kubeTool } from '../helpers/real-kube-apiserver'
import { isCiRun, requireTools } from '../helpers/test-tools'

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
    expect(() => requireTools('some suite', ['helm (scripts/fetch-helm.sh)'], { CI: 'true' })).toThrow(
      /some suite: not installed: helm \(scripts\/fetch-helm\.sh\)/,
    )
  })

  it('prints one SKIP line outside CI, and runs when nothing is missing', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      expect(requireTools('some suite', ['helm'], {})).toBe(false)
      expect(warn.mock.calls).toEqual([['SKIP some suite: not installed: helm']])
      expect(requireTools('some suite', [], { CI: 'true' })).toBe(true)
      expect(warn).toHaveBeenCalledTimes(1)
    } finally {
      warn.mockRestore()
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
      { cwd: ROOT, env: { ...process.env, CI: 'true', CHROMIUM_PATH: path.join(dir, 'no-chromium') } },
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
