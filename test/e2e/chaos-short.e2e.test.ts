import { spawn } from 'node:child_process'
import path from 'node:path'

// Issue 28: a short chaos run is part of `make test` on the real services. It runs the harness of `make chaos`
// (bench/chaos.ts) for a minute of load with the faults that touch only processes of its own: both API replicas
// killed, and the webhook receiver failing. PostgreSQL and RabbitMQ restarts are
// left to `make chaos`: in CI the other jest worker shares those services. The harness exits 0 only when every goal
// holds (nothing stuck, no webhook lost or dead, no mail missing, no record differing from its agent, no orphan, no
// 5xx but a 503 with Retry-After during a fault); its table is printed when it does not.
// The holder's SIGKILL is left to `make chaos` too: a holder killed between storing a credential and sending its ack
// leaves the issuer's record in `credential-issued` until the exchange time-out (900 s) ends it, longer than this
// run (docs/reliability.md, defect 2); with it, one short run in three failed. The organization agent's SIGKILL is
// left to `make chaos` as well, for the same window on the issuer's side: a kill between a handler storing an
// exchange's new state and the outbound queue writing the message it answers with leaves that exchange waiting for
// the time-out. A replica's kill stops the agents it supervises gracefully instead (docs/reliability.md, defect 10).
const databaseUrl = process.env.DATABASE_URL
const amqpUrl = process.env.AMQP_URL
const onRealServices = Boolean(databaseUrl && amqpUrl)

jest.setTimeout(15 * 60_000)

const describeOnRealServices = onRealServices ? describe : describe.skip
if (!onRealServices) {
  console.log('SKIP chaos-short: it runs on the real services (DATABASE_URL and AMQP_URL), as `.ci/run` sets them')
}

describeOnRealServices('a short chaos run on the real services', () => {
  it('ends every exchange, delivers every webhook and mail, and leaves no orphan while processes are killed', async () => {
    const root = path.resolve(__dirname, '../..')
    const output: string[] = []
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['-r', './bench/register-ts.cjs', 'bench/chaos.ts'], {
        cwd: root,
        env: {
          ...process.env,
          CHAOS_MINUTES: '1',
          CHAOS_WORKERS: '2',
          CHAOS_FAULTS: 'api-a,api-b,webhook-500',
          CHAOS_WEBHOOK_DOWN_SECONDS: '15',
          CHAOS_INDY: '0',
          CHAOS_DATABASE_URL: databaseUrl,
          CHAOS_AMQP_URL: amqpUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
      child.once('error', reject)
      child.once('exit', (exitCode) => resolve(exitCode))
    })
    const printed = output.join('')
    if (code !== 0) console.log(printed)
    expect(printed).toMatch(/\| exchange \| started \| done \|/)
    expect(printed).toMatch(/webhook events expected/)
    expect(code).toBe(0)
  })
})
