import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Registry } from 'prom-client'
import { ConflictError, silentLogger } from '@idplane/common'
import { InProcessQueue } from './in-process-queue'
import {
  collect,
  deferred,
  describeQueueContract,
  eventually,
  sleep,
  within,
} from '../../../../test/helpers/queue-contract'

let dataDir: string
let sequence = 0

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'idplane-queue-'))
})

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

describeQueueContract('InProcessQueue', {
  create: () => new InProcessQueue({ dataDir, logger: silentLogger, registry: new Registry() }),
  queueName: (label) => `contract-${label}-${++sequence}`,
})

describe('InProcessQueue durability', () => {
  const open: InProcessQueue[] = []

  function create(options: { registry?: Registry; closeTimeoutMs?: number } = {}): InProcessQueue {
    const queue = new InProcessQueue({
      dataDir,
      logger: silentLogger,
      registry: options.registry ?? new Registry(),
      ...options,
    })
    open.push(queue)
    return queue
  }

  function queueDir(name: string): string {
    return path.join(dataDir, 'queue', name)
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close()))
  })

  it('has the message file on disk when publish resolves and removes it on ack', async () => {
    const queue = create()
    await queue.start()
    const name = `durable-file-${++sequence}`
    await queue.publish(name, { to: 'a@example.com' }, { id: 'm-1' })
    const files = await readdir(queueDir(name))
    expect(files).toHaveLength(1)
    expect(JSON.parse(await readFile(path.join(queueDir(name), files[0]), 'utf8'))).toMatchObject({
      id: 'm-1',
      attempt: 1,
      payload: { to: 'a@example.com' },
    })
    const received = collect()
    await queue.consume(name, received.handler)
    await received.waitFor(1)
    await eventually(async () => ((await readdir(queueDir(name))).length === 0 ? true : undefined), 2_000)
  })

  it('redelivers on start what a previous instance published but never handled', async () => {
    const name = `durable-restart-${++sequence}`
    const first = create()
    await first.start()
    await first.publish(name, 'one', { id: 'a' })
    await first.publish(name, 'two', { id: 'b' })
    await first.close()

    const second = create()
    await second.start()
    const received = collect()
    await second.consume(name, received.handler, { prefetch: 1 })
    expect((await received.waitFor(2)).map((message) => message.id)).toEqual(['a', 'b'])
  })

  it('redelivers a message whose handler was still running when its process stopped', async () => {
    const name = `durable-crash-${++sequence}`
    const first = create({ closeTimeoutMs: 100 })
    await first.start()
    const inHandler = deferred<void>()
    const never = deferred<void>()
    await first.consume(name, async () => {
      inHandler.resolve()
      await never.promise
    })
    await first.publish(name, { step: 'crash' }, { id: 'crash-1' })
    await within(inHandler.promise, 2_000)
    // Like a killed process: the handler never finished, so the file was never removed.
    await first.close()

    const second = create()
    await second.start()
    const received = collect()
    await second.consume(name, received.handler)
    expect((await received.waitFor(1))[0]).toMatchObject({ id: 'crash-1', attempt: 1, payload: { step: 'crash' } })
    never.resolve()
  })

  it('keeps the attempt count and the retry schedule across a restart', async () => {
    const name = `durable-attempt-${++sequence}`
    const first = create()
    await first.start()
    const failed = deferred<void>()
    await first.consume(
      name,
      async () => {
        failed.resolve()
        throw new Error('down')
      },
      { retryDelaysMs: [400] },
    )
    const failedAt = Date.now()
    await first.publish(name, 'x')
    await within(failed.promise, 2_000)
    await sleep(50)
    await first.close()

    const second = create()
    await second.start()
    const received = collect()
    await second.consume(name, received.handler, { retryDelaysMs: [400] })
    expect((await received.waitFor(1, 2_000))[0].attempt).toBe(2)
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(390)
  })

  it('keeps dead letters as files under <queue>.dead across restarts', async () => {
    const name = `durable-dead-${++sequence}`
    const first = create()
    await first.start()
    await first.consume(
      name,
      async () => {
        throw new Error('bad')
      },
      { maxAttempts: 1 },
    )
    await first.publish(name, 'poison', { id: 'p-1' })
    await eventually(async () => ((await first.deadLetters(name)).length === 1 ? true : undefined), 2_000)
    await first.close()
    expect(await readdir(queueDir(`${name}.dead`))).toHaveLength(1)
    expect(await readdir(queueDir(name))).toHaveLength(0)

    const second = create()
    await second.start()
    expect(await second.deadLetters(name)).toEqual([
      expect.objectContaining({ id: 'p-1', payload: 'poison', attempt: 1 }),
    ])
  })

  it('loses nothing when its process is killed (SIGKILL) with a handler running', async () => {
    const name = `durable-sigkill-${++sequence}`
    const child = spawn(
      process.execPath,
      ['-e', CHILD_SCRIPT, path.resolve(__dirname, 'in-process-queue.ts'), dataDir, name],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
    await eventually(async () => (output.includes('in-handler') ? true : undefined), 15_000)
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')

    const queue = create()
    await queue.start()
    const received = collect()
    await queue.consume(name, received.handler)
    const ids = (await received.waitFor(3)).map((message) => message.id).sort()
    expect(ids).toEqual(['k-1', 'k-2', 'k-3'])
  }, 30_000)

  it('refuses a second live instance on one data directory and takes over a lock left by a dead process', async () => {
    const first = create()
    await first.start()
    const second = create()
    await expect(second.start()).rejects.toBeInstanceOf(ConflictError)
    await second.close()
    await first.close()

    const lockFile = path.join(dataDir, 'queue', '.lock')
    await writeFile(lockFile, '999999999')
    const third = create()
    await third.start()
    expect(await readFile(lockFile, 'utf8')).toBe(String(process.pid))
    await third.close()
    await expect(readFile(lockFile, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('ignores torn temporary files and sets aside unreadable ones', async () => {
    const name = `durable-torn-${++sequence}`
    await mkdir(queueDir(name), { recursive: true })
    await writeFile(path.join(queueDir(name), '.000000000000001-000001-1.json.abcd.tmp'), '{"id":')
    await writeFile(path.join(queueDir(name), '000000000000002-000001-1.json'), 'not json')
    const queue = create()
    await queue.start()
    const received = collect()
    await queue.consume(name, received.handler)
    await sleep(100)
    expect(received.messages).toEqual([])
    expect((await readdir(queueDir(name))).sort()).toEqual(['000000000000002-000001-1.json.unreadable'])
  })

  it('counts published, retried, acked and dead-lettered messages', async () => {
    const registry = new Registry()
    const queue = create({ registry })
    await queue.start()
    const name = `metrics-${++sequence}`
    await queue.consume(
      name,
      async (message) => {
        if (message.payload === 'dead' || message.attempt === 1) throw new Error('fail')
      },
      { maxAttempts: 2, retryDelaysMs: [10] },
    )
    await queue.publish(name, 'ok')
    await queue.publish(name, 'dead')
    await eventually(async () => ((await queue.deadLetters(name)).length === 1 ? true : undefined), 2_000)
    await sleep(50)
    const metric = await registry.getSingleMetric('idplane_api_queue_messages_total')?.get()
    const count = (result: string): number | undefined =>
      metric?.values.find((value) => value.labels.queue === name && value.labels.result === result)?.value
    expect({
      published: count('published'),
      retried: count('retried'),
      acked: count('acked'),
      dead: count('dead_lettered'),
    }).toEqual({
      published: 2,
      retried: 2,
      acked: 1,
      dead: 1,
    })
    expect(await registry.metrics()).toContain('idplane_api_queue_handler_duration_seconds_count')
  })
})

/**
 * Runs in a child node process: compiles the queue with swc on the fly, publishes three messages, starts a
 * handler that never finishes and says so on stdout; the test then kills it with SIGKILL.
 */
const CHILD_SCRIPT = `
const path = require('node:path')
const swc = require('@swc/core')
const { swcOptions } = require(${JSON.stringify(path.resolve(__dirname, '../../../../scripts/swc-options.cjs'))})
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformFileSync(filename, { ...swcOptions({ forBuild: true }), filename, sourceMaps: false })
  module._compile(code, filename)
}
require('reflect-metadata')
const { Registry } = require('prom-client')
const [queueFile, dataDir, name] = process.argv.slice(1)
const { InProcessQueue } = require(queueFile)
const { silentLogger } = require(${JSON.stringify(path.resolve(__dirname, '../../../../common/index.ts'))})
setInterval(() => undefined, 1000) // stands for the HTTP server that keeps a real process alive
;(async () => {
  const queue = new InProcessQueue({ dataDir, logger: silentLogger, registry: new Registry() })
  await queue.start()
  for (const id of ['k-1', 'k-2', 'k-3']) await queue.publish(name, { id }, { id })
  await queue.consume(name, () => {
    process.stdout.write('in-handler\\n')
    return new Promise(() => undefined)
  })
})()
`
