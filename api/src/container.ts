import { Container } from 'inversify'
import { IdempotencyKeysRepository } from './infra/http/idempotency/idempotency-keys.repository'
import { EntityManager } from '@mikro-orm/postgresql'
import { Registry } from 'prom-client'
import { Logger } from '@idplane/common'
import type { Config } from './infra/config'
import { Database } from './infra/db/database'
import { TokenService } from './infra/auth/token.service'
import { PasswordHasher } from './infra/auth/password-hasher'
import { createRegistry } from './infra/http/metrics'
import { TOKENS, factoryClassKey, type ReadinessCheck } from './infra/tokens'
import { API_MODULES } from './modules'
import { areOidcControllersServed } from './modules/oid4vc/oid4vc.config'
import { Queue } from './infra/queue/queue'
import { AmqpQueue } from './infra/queue/amqp-queue'
import { InProcessQueue } from './infra/queue/in-process-queue'
import { MailTransport } from './infra/mail/mailer'
import { SmtpMailer } from './infra/mail/smtp-mailer'
import { FileMailer } from './infra/mail/file-mailer'
import { MAIL_QUEUE, MailService } from './infra/mail/mail.service'
import { MailOutbox } from './infra/mail/mail-outbox'
import { MailOutboxRepository } from './infra/mail/mail-outbox.repository'
import { SecretBox } from './infra/crypto/secret-box'
import { AgentRuntime } from './agent-runtime/agent-runtime'
import { createAgentRuntime } from './agent-runtime/create-agent-runtime'
import { ModuleRegistry } from './infra/module-registry'
import { persistedEntities } from './infra/db/persisted-entities'
import { RetentionPruner } from './infra/retention/retention-pruner'

export interface RuntimeOptions {
  /** scrypt cost (log2 N); tests lower it. */
  passwordHashLogN?: number
  /**
   * Start the queue workers (mail delivery) and the modules' background work (ApiModule.start); tests of a
   * single service may leave them off. @default true
   */
  startWorkers?: boolean
}

/** The composition root's product: a loaded container and the one way to release what it holds. */
export interface Runtime {
  container: Container
  close(): Promise<void>
}

/**
 * Opens every outside dependency once (database, queue, mail, keys) and binds it with every module of
 * API_MODULES, then starts the modules. Only this file and main.ts touch the container.
 */
export async function createRuntime(config: Config, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const registry = createRegistry()
  const database = await Database.open(
    config.database,
    logger.child({ component: 'database' }),
    persistedEntities(API_MODULES),
    registry,
  )
  const queue = createQueue(config, logger, registry)
  try {
    await queue.start()
  } catch (error) {
    await database.close()
    throw error
  }
  const transport = createMailTransport(config, logger)
  // Drain-only: nothing enqueues to mail.outbound now (mail goes through the outbox below); the worker sends what
  // versions before the outbox queued. Removed once no upgrade starts from those (decisions.md, "Mail queue: drain
  // only").
  const mail = new MailService(queue, transport, logger, registry, {
    queueName: `${config.queue.namePrefix}${MAIL_QUEUE}`,
  })

  const container = new Container({ defaultScope: 'Singleton' })
  container.bind(TOKENS.Config).toConstantValue(config)
  container.bind(Logger).toConstantValue(logger)
  container.bind(Registry).toConstantValue(registry)
  container.bind(Queue).toConstantValue(queue)
  container.bind(MailTransport).toConstantValue(transport)
  container.bind(MailService).toConstantValue(mail)
  container.bind(factoryClassKey(Database)).toConstantValue(database)
  // The global em resolves to the request's fork inside RequestContext (see infra/http/request-context.ts).
  container.bind(EntityManager).toConstantValue(database.orm.em)
  container.bind(IdempotencyKeysRepository).toConstantValue(new IdempotencyKeysRepository(database.orm.em))
  container.bind(TokenService).toConstantValue(new TokenService(config.jwt))
  container.bind(PasswordHasher).toConstantValue(new PasswordHasher(options.passwordHashLogN, config.passwordHashing))
  container
    .bind<ReadinessCheck>(TOKENS.ReadinessChecks)
    .toConstantValue({ name: 'database', isHealthy: () => database.isHealthy() })
  container
    .bind<ReadinessCheck>(TOKENS.ReadinessChecks)
    .toConstantValue({ name: 'queue', isHealthy: () => queue.isHealthy() })
  const agentRuntime = createAgentRuntime(config, logger, { openId4Vc: areOidcControllersServed(config) })
  container.bind(AgentRuntime).toConstantValue(agentRuntime)
  container
    .bind(factoryClassKey(SecretBox))
    .toConstantValue(SecretBox.open(config, logger.child({ component: 'secrets' })))
  const modules = new ModuleRegistry(API_MODULES, container)
  container.bind(ModuleRegistry).toConstantValue(modules)
  container.load(...API_MODULES.map((module) => module.bindings))
  // Mail announcing a change is written with it and relayed from the outbox (docs/queue-and-mail.md).
  const outbox = new MailOutbox(new MailOutboxRepository(database.orm.em), transport, logger, registry, {
    pollIntervalMs: config.mailOutbox.pollIntervalMs,
    leaseSeconds: config.mailOutbox.leaseSeconds,
    from: config.mail.from,
  })
  container.bind(MailOutbox).toConstantValue(outbox)
  // Every process prunes (docs/reliability.md, "Retention"): passes on several replicas delete disjoint rows.
  const pruner = new RetentionPruner(
    [outbox.retentionTask(config.mailOutbox.retentionSeconds), ...modules.retentionTasks()],
    config.retention,
    logger,
    registry,
  )
  container.bind(RetentionPruner).toConstantValue(pruner)

  const close = async () => {
    // Stop taking work first, let in-flight handlers finish, then release the database they use.
    await pruner.stop()
    await modules.stop()
    await outbox.stop()
    await agentRuntime.close()
    await queue.close()
    await transport.close?.()
    await database.close()
  }
  if (options.startWorkers !== false) {
    try {
      await mail.startWorker()
      outbox.start()
      await modules.start()
      pruner.start()
    } catch (error) {
      await close().catch(() => undefined)
      throw error
    }
  }

  return { container, close }
}

function createQueue(config: Config, logger: Logger, registry: Registry): Queue {
  const queueLogger = logger.child({ component: 'queue' })
  return config.queue.kind === 'amqp'
    ? new AmqpQueue({ url: config.queue.url, logger: queueLogger, registry })
    : new InProcessQueue({ dataDir: config.queue.dir, logger: queueLogger, registry })
}

function createMailTransport(config: Config, logger: Logger): MailTransport {
  const mailLogger = logger.child({ component: 'mail' })
  return config.mail.kind === 'smtp'
    ? new SmtpMailer({ url: config.mail.url, from: config.mail.from, logger: mailLogger })
    : new FileMailer({ dataDir: config.mail.dir, from: config.mail.from, logger: mailLogger })
}
