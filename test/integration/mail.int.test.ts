import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { connect } from 'amqplib'
import { Registry } from 'prom-client'
import { Logger, UpstreamError, silentLogger } from '@idplane/common'
import { FileMailer, readLatestMail } from '../../api/src/infra/mail/file-mailer'
import { MailService } from '../../api/src/infra/mail/mail.service'
import { SmtpMailer } from '../../api/src/infra/mail/smtp-mailer'
import { AmqpQueue } from '../../api/src/infra/queue/amqp-queue'
import { retryQueueName } from '../../api/src/infra/queue/amqp-message'
import { InProcessQueue } from '../../api/src/infra/queue/in-process-queue'
import { eventually } from '../helpers/queue-contract'
import { SmtpCapture, startSmtpCapture } from '../helpers/smtp-capture'

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672'
const FROM = 'idplane <no-reply@idplane.test>'

function recordingLogger(): { logger: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const written: string[] = []
  return {
    logger: new Logger({}, 'debug', { write: (line) => void written.push(line) }),
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => written.join(''),
  }
}

async function metricValue(registry: Registry, name: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get()
  return metric?.values[0]?.value ?? 0
}

describe('SmtpMailer', () => {
  let capture: SmtpCapture

  beforeAll(async () => {
    capture = await startSmtpCapture({ user: 'mailer', password: 'smtp-s3cret' })
  })

  afterAll(async () => {
    await capture.stop()
  })

  it('delivers text, html and a non-ASCII subject over SMTP with login, never logging the password', async () => {
    const log = recordingLogger()
    const mailer = new SmtpMailer({ url: capture.url, from: FROM, logger: log.logger })
    await mailer.verify()
    expect(await mailer.isHealthy()).toBe(true)
    await mailer.send({
      to: 'Alice@Example.com',
      subject: 'Bestätigen Sie Ihre E-Mail',
      text: 'Open https://idplane.test/verify?code=' + 'x'.repeat(90),
      html: '<p>Open the link</p>',
    })
    const mail = await capture.waitForMail('alice@example.com')
    expect(mail).toMatchObject({
      from: 'no-reply@idplane.test',
      subject: 'Bestätigen Sie Ihre E-Mail',
      text: 'Open https://idplane.test/verify?code=' + 'x'.repeat(90),
      html: '<p>Open the link</p>',
      user: 'mailer',
    })
    expect(log.text()).not.toContain('smtp-s3cret')
    expect(log.lines().find((line) => line.msg === 'Sent mail')).toMatchObject({
      to: 'Alice@Example.com',
      server: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+$/),
    })
    await mailer.close()
  })

  it('sends the outbox Message-ID as the Message-ID header, so a re-sent mail is recognizable', async () => {
    const mailer = new SmtpMailer({ url: capture.url, from: FROM, logger: silentLogger })
    const message = {
      to: 'grace@example.com',
      subject: 'Invitation',
      text: 'Join us',
      messageId: '<invitation.0b9e@idplane.test>',
    }
    await mailer.send(message)
    await mailer.send(message)
    const mail = await capture.waitForMail('grace@example.com', { count: 2 })
    const ids = capture.messages.filter((m) => m.to.includes('grace@example.com')).map((m) => m.headers['message-id'])
    expect(ids).toEqual(['<invitation.0b9e@idplane.test>', '<invitation.0b9e@idplane.test>'])
    expect(mail.subject).toBe('Invitation')
    await mailer.close()
  })

  it('fails with UpstreamError on a wrong password, without the password in the error', async () => {
    const mailer = new SmtpMailer({
      url: capture.url.replace('smtp-s3cret', 'wrong-pw'),
      from: FROM,
      logger: silentLogger,
    })
    const error = await mailer
      .send({ to: 'bob@example.com', subject: 's', text: 't' })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(JSON.stringify({ message: String(error), cause: String((error as Error).cause) })).not.toContain('wrong-pw')
    expect(await mailer.isHealthy()).toBe(false)
  })
})

describe('MailService over RabbitMQ and SMTP', () => {
  const queueName = `idplane-test-${randomUUID().slice(0, 8)}.mail`
  let capture: SmtpCapture
  let queue: AmqpQueue
  let registry: Registry
  let service: MailService

  beforeAll(async () => {
    capture = await startSmtpCapture()
    registry = new Registry()
    queue = new AmqpQueue({ url: AMQP_URL, logger: silentLogger, registry, publishTimeoutMs: 5_000 })
    await queue.start()
    const transport = new SmtpMailer({ url: capture.url, from: FROM, logger: silentLogger })
    service = new MailService(queue, transport, silentLogger, registry, {
      queueName,
      consume: { maxAttempts: 4, retryDelaysMs: [200] },
    })
    await service.startWorker()
  })

  afterAll(async () => {
    await queue.close()
    await capture.stop()
    const admin = await connect(AMQP_URL)
    const channel = await admin.createChannel()
    for (const name of [queueName, `${queueName}.dead`, retryQueueName(queueName, 200)]) await channel.deleteQueue(name)
    await admin.close()
  })

  it('sends an enqueued mail through the queue to the SMTP server', async () => {
    await service.enqueue({ to: 'carol@example.com', subject: 'Welcome', text: 'Hello Carol' })
    expect(await capture.waitForMail('carol@example.com')).toMatchObject({ subject: 'Welcome', text: 'Hello Carol' })
  })

  it('retries while the SMTP server refuses and delivers the mail once it accepts again', async () => {
    const sentBefore = await metricValue(registry, 'idplane_api_mail_sent_total')
    capture.rejectDeliveries()
    await service.enqueue({ to: 'dave@example.com', subject: 'Retry me', text: 'eventually' })
    await eventually(async () => (capture.rejected >= 2 ? true : undefined), 5_000)
    capture.acceptDeliveries()
    expect(await capture.waitForMail('dave@example.com')).toMatchObject({ subject: 'Retry me', text: 'eventually' })
    expect(await metricValue(registry, 'idplane_api_mail_send_failures_total')).toBeGreaterThanOrEqual(2)
    expect(await metricValue(registry, 'idplane_api_mail_sent_total')).toBe(sentBefore + 1)
    expect(await queue.deadLetters(queueName)).toEqual([])
  })

  it('ends in the dead-letter queue when the SMTP server keeps refusing', async () => {
    capture.rejectDeliveries()
    try {
      await service.enqueue({ to: 'erin@example.com', subject: 'Never', text: 'refused' })
      const dead = await eventually(async () => {
        const letters = await queue.deadLetters(queueName)
        return letters.length > 0 ? letters : undefined
      }, 10_000)
      expect(dead[0]).toMatchObject({
        attempt: 4,
        payload: { to: 'erin@example.com', subject: 'Never', text: 'refused' },
      })
      expect(dead[0].headers['x-death-reason']).toMatch(/^UpstreamError: SMTP server did not accept the mail/)
    } finally {
      capture.acceptDeliveries()
    }
  })

  it('refuses a mail without a recipient before queueing it', async () => {
    await expect(service.enqueue({ to: ' ', subject: 's', text: 't' })).rejects.toMatchObject({
      name: 'InvalidInputError',
      fields: [{ field: 'to', message: 'must be a non-empty string' }],
    })
  })
})

describe('MailService in embedded mode (in-process queue, FileMailer)', () => {
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'idplane-mail-'))
  })

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true })
  })

  it('writes each mail as a JSON file under <dataDir>/mail/<recipient>/ and logs where', async () => {
    const log = recordingLogger()
    const queue = new InProcessQueue({ dataDir, logger: silentLogger, registry: new Registry() })
    await queue.start()
    const mailer = new FileMailer({ dataDir, from: FROM, logger: log.logger })
    const service = new MailService(queue, mailer, silentLogger, new Registry())
    await service.startWorker()
    try {
      await service.enqueue({ to: 'Frank@Example.com', subject: 'First', text: 'one' })
      await eventually(async () => readLatestMail(dataDir, 'frank@example.com'), 5_000)
      await service.enqueue({
        to: 'frank@example.com',
        subject: 'Second',
        text: 'two https://idplane.test/verify?code=abc',
      })
      const latest = await eventually(async () => {
        const mail = await mailer.readLatest('FRANK@example.com')
        return mail?.subject === 'Second' ? mail : undefined
      }, 5_000)
      expect(latest).toMatchObject({
        from: FROM,
        to: 'frank@example.com',
        text: 'two https://idplane.test/verify?code=abc',
      })

      // The file becomes visible (atomic rename) a moment before the mailer logs it: wait for the second line.
      const wrote = await eventually(async () => {
        const lines = log.lines().filter((line) => line.msg === 'Wrote mail')
        return lines.length >= 2 ? lines : undefined
      }, 5_000)
      expect(wrote).toHaveLength(2)
      const file = String(wrote[1].file)
      expect(path.dirname(file)).toBe(path.join(dataDir, 'mail', 'frank@example.com'))
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ subject: 'Second', date: expect.any(String) })
      expect(await readLatestMail(dataDir, 'nobody@example.com')).toBeUndefined()
    } finally {
      await queue.close()
    }
  })
})
