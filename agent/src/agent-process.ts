import type { Server } from 'node:http'

import type { Logger } from '@idplane/common'
import { closeServer } from '@idplane/common/net/close-server'
import { compiledExports } from '@idplane/common/compiled-module'
import { reportMaintenanceRun } from '@idplane/common/pglite-maintenance'

import { IdplaneAdaptersModule } from './adapters/idplane-adapters.module'
import { EncryptedKeyStorage } from './adapters/kms/encrypted-key-storage'
import { PgSqlClient } from './adapters/sql/pg-sql-client'
import { PgliteSqlClient } from './adapters/sql/pglite-sql-client'
import { migrateSchema } from './adapters/sql/schema-migrations'
import type { SqlClient } from './adapters/sql/sql-client'
import { DEFAULT_MIRROR_LIMITS } from './adapters/storage/record-mirror'
import { createAdminApp } from './admin/admin-app'
import { AgentRuntime } from './admin/agent-runtime'
import type { AgentConfig } from './config'
import { buildAgent, type IdplaneAgent } from './credo/build-agent'
import { LedgerClient } from './ledger/ledger-client'
import { type CredoEventLike, FORWARDED_EVENTS } from './events/event-mapper'
import { OutboxRepository } from './events/outbox/outbox.repository'
import { OutboxSender } from './events/outbox/outbox-sender'
import { StateChangeOutbox } from './events/state-change-outbox'
import { announceReady } from './events/ready-announcement'
import { IdleCollector } from './idle-collector'
import { AgentMetrics } from './metrics/agent-metrics'
import { DidCommNodeHttpInboundTransport } from './transport/didcomm-http-inbound.transport'
import { OutboundQueue } from './transport/outbound-queue'
import { OutboundTargetGuard } from './transport/outbound-target-guard'
import { TakenEnvelopes } from './transport/taken-envelopes'
import { contextProviderOf, ExchangeTimeouts } from './credo/exchange-timeouts'
import { resumeAutoAccepts } from './credo/resume-auto-accepts'
import { resumeOutOfBandRequests } from './credo/resume-oob-requests'

/** The running agent program: database, Credo agent, admin server, event outbox; `stop` undoes `start`. */
export class AgentProcess {
  private sql: SqlClient | undefined
  private agent: IdplaneAgent | undefined
  private server: Server | undefined
  private sender: OutboxSender | undefined
  private idleCollector: IdleCollector | undefined
  private exchangeTimeouts: ExchangeTimeouts | undefined
  private takenEnvelopes: TakenEnvelopes | undefined

  public constructor(
    private readonly config: AgentConfig,
    private readonly logger: Logger,
  ) {}

  public async start(): Promise<void> {
    const { config, logger } = this
    const metrics = new AgentMetrics()
    if (config.isMemorySaving)
      this.idleCollector = new IdleCollector({ onCollected: (seconds) => metrics.idleCollections.observe(seconds) })
    const runtime = new AgentRuntime(config.label, [config.endpoint])
    // The admin port answers (503) while the agent starts, so pollers see a live process.
    const adminApp = createAdminApp({
      runtime,
      apiKey: config.apiKey,
      metrics,
      logger: logger.child({ component: 'admin' }),
    })
    this.server =
      config.bindHost === undefined
        ? adminApp.listen(config.adminPort)
        : adminApp.listen(config.adminPort, config.bindHost)
    await new Promise<void>((resolve, reject) => {
      this.server?.once('listening', resolve).once('error', reject)
    })
    logger.info('Started admin server', { port: config.adminPort, host: config.bindHost ?? 'all interfaces' })

    this.sql =
      config.database.kind === 'postgres'
        ? await PgSqlClient.connect(config.database.url, config.database.schema)
        : await PgliteSqlClient.open(config.database.dataDir, {
            sharedBuffersMb: config.database.sharedBuffersMb,
            maintenance: { onRun: (run) => reportMaintenanceRun(run, metrics.embeddedDatabaseMaintenance, logger) },
          })
    await migrateSchema(this.sql)
    const keys = await EncryptedKeyStorage.open(this.sql, config.walletKey)
    const takenEnvelopes = new TakenEnvelopes(this.sql, logger.child({ component: 'inbound' }))
    this.takenEnvelopes = takenEnvelopes

    if (config.events) {
      this.sender = new OutboxSender(
        new OutboxRepository(this.sql),
        {
          url: config.events.url,
          token: config.events.token,
          onResult: (result) => metrics.eventDeliveries.inc({ result }),
        },
        logger.child({ component: 'events' }),
      )
    }
    const openId4Vc = config.isOpenId4VcEnabled
      ? new (await loadOpenId4Vc()).IdplaneOpenId4VcModule({ publicBaseUrl: config.endpoint })
      : undefined
    const agent = buildAgent({
      endpoints: [config.endpoint],
      inboundPort: config.inboundPort,
      inboundHost: config.bindHost,
      onInboundMessage: () => metrics.didcommMessages.inc({ direction: 'in' }),
      takenEnvelopes,
      onDuplicateInboundMessage: () => metrics.didcommMessages.inc({ direction: 'duplicate' }),
      logger,
      logLevel: config.logLevel,
      anonCredsTestRegistryDir: config.anonCredsTestRegistryDir,
      openId4Vc,
      // The platform the agent reports to and its own endpoint are the operator's choice (may be cluster-internal).
      outboundTargets: new OutboundTargetGuard(config.allowPrivateTargets, {
        trustedOrigins: [config.ledgerUrl, config.events?.url, config.endpoint],
      }),
      outboundQueue: new OutboundQueue(
        this.sql,
        { maxAttempts: config.outboundMaxAttempts },
        logger.child({ component: 'outbound' }),
      ),
      ledger: new LedgerClient({
        baseUrl: config.ledgerUrl,
        token: config.events?.token,
        onRequest: ({ route, outcome, seconds }) => metrics.ledgerRequests.observe({ route, outcome }, seconds),
      }),
      // State changes are stored with the records they belong to (the transactional outbox).
      adapters: new IdplaneAdaptersModule(this.sql, keys, {
        events: this.sender ? new StateChangeOutbox(config.label, this.sender) : undefined,
        mirror:
          config.recordMirrorMb === 0
            ? false
            : { ...DEFAULT_MIRROR_LIMITS, maxBytes: config.recordMirrorMb * 1024 * 1024 },
      }),
    })
    this.agent = agent
    this.countMessages(agent, metrics)
    resumeOutOfBandRequests(agent, logger.child({ component: 'oob-resume' }))
    const initializedAt = new Date()
    await agent.initialize()
    // Not awaited: the agent answers GET /agent meanwhile; what it answers here goes out like any other message.
    void resumeAutoAccepts(agent, logger.child({ component: 'auto-accept-resume' }), initializedAt).catch(
      (error: unknown) => logger.warn('Could not look for exchanges left by an earlier process', { error }),
    )
    this.exchangeTimeouts = new ExchangeTimeouts(
      this.sql,
      () => contextProviderOf(agent),
      { timeoutSeconds: config.exchangeTimeoutSeconds },
      logger.child({ component: 'exchange-timeouts' }),
    )
    this.exchangeTimeouts.start()
    takenEnvelopes.startPruning()
    this.sender?.start()
    this.idleCollector?.start()
    runtime.setInitialized(agent)
    logger.info('Initialized agent', {
      label: config.label,
      endpoint: config.endpoint,
      database: config.database.kind,
      openId4Vc: config.isOpenId4VcEnabled,
      outboundMaxAttempts: config.outboundMaxAttempts,
      exchangeTimeoutSeconds: config.exchangeTimeoutSeconds,
    })
    // GET /agent answers 200 from here on: tell the platform rather than wait for its next poll (not awaited; the
    // platform's polling stays the fallback).
    if (config.events) {
      void announceReady(
        { eventUrl: config.events.url, token: config.events.token },
        logger.child({ component: 'events' }),
      )
    }
  }

  public async stop(): Promise<void> {
    // Nothing new is taken from other agents while this one stops: they send it again, to the next process. What is
    // being processed ends before Credo's shutdown, which stops the outbound transport its answers go through.
    const inbound = (this.agent?.didcomm.inboundTransports ?? []).filter(
      (transport) => transport instanceof DidCommNodeHttpInboundTransport,
    )
    for (const transport of inbound) transport.refuseNewMessages()
    this.idleCollector?.stop()
    this.takenEnvelopes?.stopPruning()
    await this.exchangeTimeouts?.stop()
    if (this.server) await closeServer(this.server)
    await Promise.all(inbound.map((transport) => transport.stop()))
    if (this.agent?.isInitialized) await this.agent.shutdown()
    await this.sender?.stop()
    await this.sql?.close()
  }

  private countMessages(agent: IdplaneAgent, metrics: AgentMetrics): void {
    // Messages POSTed to the inbound port are counted by the transport (onInboundMessage); this event is emitted for
    // envelopes that come back in the answer to a message we sent (return routing).
    agent.events.on('DidCommMessageReceived', () => metrics.didcommMessages.inc({ direction: 'in' }))
    agent.events.on('DidCommMessageSent', () => metrics.didcommMessages.inc({ direction: 'out' }))
    for (const [type, { kind, recordKey }] of Object.entries(FORWARDED_EVENTS)) {
      agent.events.on(type, (event: CredoEventLike) => {
        const record = event.payload[recordKey] as { state?: unknown } | undefined
        metrics.exchanges.inc({ kind, state: String(record?.state ?? 'unknown') })
      })
    }
  }
}

/**
 * `agent/src/openid4vc`, loaded only when enabled: `@credo-ts/openid4vc` and its dependencies cost ~200 ms and ~17 MB
 * at start (test/integration/program-start-modules.int.test.ts checks that a start without it does not load it).
 */
async function loadOpenId4Vc(): Promise<typeof import('./openid4vc/openid4vc.module.js')> {
  return compiledExports(await import('./openid4vc/openid4vc.module.js'), 'IdplaneOpenId4VcModule')
}
