import 'reflect-metadata'
import request from 'supertest'
import { ContainerModule, injectable } from 'inversify'
import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy'
import { EntityManager } from '@mikro-orm/postgresql'
import { hashToken, randomSecret } from '../../api/src/infra/crypto/token-hash'
import { BaseEntity } from '../../api/src/infra/db/base.entity'
import { BaseRepository, type LockedRow } from '../../api/src/infra/db/base.repository'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import { OrgExchangeRecords, type ExchangeReport } from '../../api/src/infra/records/exchange-records'
import { stateOrder, textOf, versionTimeOf } from '../../api/src/infra/records/record-order'
import { API_MODULES } from '../../api/src/modules'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { WebhooksService } from '../../api/src/modules/webhooks/webhooks.service'
import { startApi, type TestApi } from '../helpers/api'
import { aMember, anOrganization } from '../helpers/org-fixtures'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { ORDERED_WEBHOOK_ENV } from '../helpers/webhook-fixtures'

// jest ignores testTimeout inside a project; a PGlite start on a busy machine takes longer than 5 s.
jest.setTimeout(90_000)

/*
 * The rehearsal of issue 24: a new module that keeps an exchange kind (here OpenID4VC issuance sessions, which the
 * oid4vc module has kept since, beside this probe: its mapper takes only Credo's UUID ids, so the probe's
 * `session-n` records reach this probe alone; test/integration/openid4vc-session-records.int.test.ts drives the
 * real kinds) is its folder, one line in the module list and its migration. Everything below
 * until the tests is what that folder would hold: entity, repository, mapper, state order, records. Nothing else
 * of the API is edited; ordering, the state event and its webhook come from infra/records.
 */

// --- the module's folder -------------------------------------------------------------------------------------

/** The entity (issuance-session.entity.ts). */
@Entity({ tableName: 'probe_issuance_sessions' })
@Unique({ properties: ['orgId', 'sessionId'] })
class IssuanceSession extends BaseEntity {
  @Property({ type: 'uuid' })
  orgId!: string

  @Property({ type: 'string', length: 100 })
  sessionId!: string

  @Property({ type: 'string', length: 40 })
  state!: string

  @Property({ type: 'string', length: 200, nullable: true })
  credentialType?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}

/** Its migration (Migration<timestamp>IssuanceSessions.ts), run by the test's database set-up below. */
const MIGRATION = `create table probe_issuance_sessions (
  id uuid primary key, created_at timestamptz not null, updated_at timestamptz not null, org_id uuid not null,
  session_id varchar(100) not null, state varchar(40) not null, credential_type varchar(200) null,
  agent_updated_at timestamptz not null, constraint probe_issuance_sessions_org_session_unique unique (org_id, session_id))`

/** The repository (issuance-sessions.repository.ts): the queries the records path needs. */
@injectable()
class IssuanceSessionsRepository extends BaseRepository<IssuanceSession> {
  public constructor(em: EntityManager) {
    super(em, IssuanceSession)
  }

  /** The organization's session, locked; inserted first when absent (the insert race ends in one row). */
  public async lockOrCreate(
    orgId: string,
    sessionId: string,
    fields: SessionFields,
  ): Promise<LockedRow<IssuanceSession> | null> {
    return this.lockOrCreateExchange({ orgId, sessionId }, fields)
  }

  public find(orgId: string, sessionId: string): Promise<IssuanceSession | null> {
    return this.em.fork().findOne(IssuanceSession, { orgId, sessionId })
  }
}

/** The state order (issuance-session.states.ts). */
const SESSION_ORDER = stateOrder(
  { 'offer-created': 1, 'offer-uri-retrieved': 2, 'access-token-created': 3, completed: 4, error: 4 },
  ['completed', 'error'],
)

type SessionFields = Pick<IssuanceSession, 'state' | 'credentialType' | 'agentUpdatedAt'>

/** The mapper (issuance-session.mapper.ts): agent JSON → report, pure. */
function sessionReportOf(record: Record<string, unknown>, occurredAt: string): ExchangeReport<SessionFields> | null {
  const recordId = textOf(record, 'id', 100)
  const state = textOf(record, 'state', 40)
  if (!recordId || !state) return null
  const versionAt = versionTimeOf(record, occurredAt)
  return {
    recordId,
    state,
    versionAt,
    fields: { state, credentialType: textOf(record, 'credentialType', 200), agentUpdatedAt: versionAt },
  }
}

/** The records (issuance-session-records.ts): the kind declared to the shared path. */
@injectable()
class IssuanceSessionRecords extends OrgExchangeRecords<IssuanceSession, SessionFields> {
  public constructor(sessions: IssuanceSessionsRepository, modules: ModuleRegistry) {
    super(
      {
        name: 'openid4vc-issuance',
        order: SESSION_ORDER,
        mapper: sessionReportOf,
        store: {
          transactional: (work) => sessions.transactional(work),
          lockOrCreate: (orgId, report) => sessions.lockOrCreate(orgId, report.recordId, report.fields),
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: (row, report, decision) => {
          if (decision !== 'ignore') Object.assign(row, report.fields)
        },
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row, previousState) => ({
          sessionId: row.sessionId,
          state: row.state,
          credentialType: row.credentialType ?? null,
          previousState,
        }),
      },
      modules,
    )
  }
}

// --- its one line in the module list (modules/index.ts) ------------------------------------------------------

API_MODULES.push({
  name: 'probe-issuance-sessions',
  controllers: [],
  entities: [IssuanceSession],
  agentEventHandlers: [{ kind: 'openid4vc-issuance', handler: IssuanceSessionRecords }],
  bindings: new ContainerModule(({ bind }) => {
    bind(IssuanceSessionsRepository).toSelf().inSingletonScope()
    bind(IssuanceSessionRecords).toSelf().inSingletonScope()
  }),
})

// --- the rehearsal --------------------------------------------------------------------------------------------

describe('a new exchange kind added as a module (its folder, one index line, its migration)', () => {
  let api: TestApi
  let receiver: WebhookReceiver
  let orgId: string
  let eventToken: string
  const hookPath = '/sessions'

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    api = await startApi({ ...ORDERED_WEBHOOK_ENV, WEBHOOK_RETRY_DELAYS_MS: '100,200' })
    await api.runtime.container.get(EntityManager).getConnection().execute(MIGRATION)
    const owner = await aMember(api)
    orgId = (await anOrganization(api, owner.token)).id
    eventToken = randomSecret()
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, orgId),
      label: 'Issuer wallet',
      runtime: 'process',
      encryptedApiKey: 'unused',
      encryptedWalletKey: 'unused',
      eventTokenHash: hashToken(eventToken),
    })
    await em.flush()
    await api.runtime.container.get(WebhooksService).registerForOrg(orgId, { webhookUrl: `${receiver.url}${hookPath}` })
  })

  afterAll(async () => {
    await api?.stop()
    await receiver?.stop()
  })

  const at = (second: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, second)).toISOString()
  const postEvent = (id: string, record: Record<string, unknown>, tenantId?: string) =>
    request(api.app)
      .post('/v1/internal/agent-events')
      .set('Authorization', `Bearer ${eventToken}`)
      .send({
        id,
        kind: 'openid4vc-issuance',
        agentLabel: 'Issuer wallet',
        ...(tenantId ? { tenantId } : {}),
        occurredAt: new Date().toISOString(),
        record,
      })
      .expect(200)
  const stored = (sessionId: string) => api.runtime.container.get(IssuanceSessionsRepository).find(orgId, sessionId)
  /** The state events the organization's webhook received for one session, in order. */
  const delivered = (sessionId: string) =>
    receiver
      .accepted(hookPath)
      .map((delivery) => delivery.body?.data as { type: string; orgId: string; record: Record<string, unknown> })
      .filter((event) => event.record.sessionId === sessionId)

  it('records the first report and announces it as <kind>.state-changed to the webhook', async () => {
    await postEvent('evt-s1', { id: 'session-1', state: 'offer-created', credentialType: 'Diploma', updatedAt: at(1) })
    expect(await stored('session-1')).toEqual(
      expect.objectContaining({ state: 'offer-created', credentialType: 'Diploma' }),
    )
    await receiver.waitFor(() => delivered('session-1').length === 1)
    expect(delivered('session-1')).toEqual([
      {
        id: expect.any(String),
        type: 'openid4vc-issuance.state-changed',
        orgId,
        occurredAt: expect.any(String),
        record: { sessionId: 'session-1', state: 'offer-created', credentialType: 'Diploma', previousState: null },
      },
    ])
  })

  it('never lets an older report overwrite a newer state, and announces each state entered once', async () => {
    await postEvent('evt-s2', { id: 'session-2', state: 'offer-created', updatedAt: at(1) })
    await postEvent('evt-s3', { id: 'session-2', state: 'completed', credentialType: 'Licence', updatedAt: at(5) })
    // Late and repeated reports: an earlier state with an older time, one with a newer time, the same state again.
    await postEvent('evt-s4', { id: 'session-2', state: 'access-token-created', updatedAt: at(3) })
    await postEvent('evt-s5', { id: 'session-2', state: 'offer-uri-retrieved', updatedAt: at(9) })
    await postEvent('evt-s6', { id: 'session-2', state: 'completed', credentialType: 'Licence', updatedAt: at(5) })
    expect(await stored('session-2')).toEqual(
      expect.objectContaining({ state: 'completed', credentialType: 'Licence', agentUpdatedAt: new Date(at(5)) }),
    )
    await receiver.waitFor(() => delivered('session-2').length >= 2)
    // Give a wrong third delivery the time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(delivered('session-2').map((event) => [event.record.previousState, event.record.state])).toEqual([
      [null, 'offer-created'],
      ['offer-created', 'completed'],
    ])
  })

  it('takes the same path for a record the agent answers to a call (a service of the module)', async () => {
    const records = api.runtime.container.get(IssuanceSessionRecords)
    const first = await records.applyAnswered(orgId, {
      id: 'session-3',
      state: 'offer-uri-retrieved',
      updatedAt: at(2),
    })
    expect(first?.decision).toBe('insert')
    const late = await records.applyAnswered(orgId, { id: 'session-3', state: 'offer-created', updatedAt: at(1) })
    expect(late).toEqual({ row: expect.objectContaining({ state: 'offer-uri-retrieved' }), decision: 'ignore' })
    const newer = await records.applyAnswered(orgId, {
      id: 'session-3',
      state: 'offer-uri-retrieved',
      credentialType: 'Badge',
      updatedAt: at(4),
    })
    expect(newer?.decision).toBe('refresh')
    expect(await stored('session-3')).toEqual(
      expect.objectContaining({ state: 'offer-uri-retrieved', credentialType: 'Badge' }),
    )
    expect(await records.applyAnswered(orgId, { state: 'completed' })).toBeNull()
  })

  it("leaves a cloud-wallet tenant's events and unusable records alone", async () => {
    await postEvent('evt-s7', { id: 'session-4', state: 'offer-created' }, 'some-tenant')
    await postEvent('evt-s8', { state: 'offer-created' })
    expect(await stored('session-4')).toBeNull()
  })
})
