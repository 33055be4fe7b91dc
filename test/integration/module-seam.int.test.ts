import 'reflect-metadata'
import request from 'supertest'
import { ContainerModule, injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { InvalidStateError } from '@idplane/common'
import type { AgentEventHandler, AppliedAgentEvent, OrganizationCounter } from '../../api/src/infra/api-module'
import { sectionOf, type ConfigSection } from '../../api/src/infra/config-section'
import { hashToken, randomSecret } from '../../api/src/infra/crypto/token-hash'
import { API_MODULES } from '../../api/src/modules'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { startApi, type TestApi } from '../helpers/api'
import { aMember, anOrganization, type TestUser } from '../helpers/org-fixtures'

// jest ignores testTimeout inside a project; a PGlite start on a busy machine takes longer than 5 s.
jest.setTimeout(60_000)

/** What the probe module saw, shared by its handler, counter and hooks (this file's module only). */
const seen = {
  events: [] as { orgId: string; event: AppliedAgentEvent }[],
  deleted: [] as string[],
  refuseDelete: false,
}

@injectable()
class ProbeEventsHandler implements AgentEventHandler {
  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    if (event.record.fail === true) throw new InvalidStateError('The probe refuses this event')
    seen.events.push({ orgId, event })
  }
}

type ProbeCounts = { probeEvents: number }

@injectable()
class ProbeCounter implements OrganizationCounter<ProbeCounts> {
  public async count(orgId: string): Promise<ProbeCounts> {
    return { probeEvents: seen.events.filter((entry) => entry.orgId === orgId).length }
  }

  public summarize(counts: ProbeCounts) {
    return { hasProbeEvents: counts.probeEvents > 0 }
  }
}

const probeSection: ConfigSection<{ label: string }> = {
  name: 'probe',
  read: (env) => ({ label: env.string('PROBE_LABEL', 'default probe') }),
}

// A module added the way a new one is: its declaration in the module list, nothing else.
API_MODULES.push({
  name: 'probe',
  controllers: [],
  agentEventHandlers: [{ kind: 'connection', handler: ProbeEventsHandler }],
  counter: ProbeCounter,
  config: probeSection,
  bindings: new ContainerModule(({ bind }) => {
    bind(ProbeEventsHandler).toSelf().inSingletonScope()
    bind(ProbeCounter).toSelf().inSingletonScope()
  }),
  onOrganizationDeleted: async (_container, orgId) => {
    if (seen.refuseDelete) throw new InvalidStateError('The probe keeps this organization')
    seen.deleted.push(orgId)
  },
})

describe('a module declared in the module list', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let eventToken: string

  beforeAll(async () => {
    api = await startApi({ PROBE_LABEL: 'from the environment' })
    owner = await aMember(api)
    orgId = (await anOrganization(api, owner.token)).id
    // An agent record that holds an event token, as spin-up leaves it (no agent process needed here).
    eventToken = randomSecret()
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, orgId),
      label: 'Probe wallet',
      runtime: 'process',
      encryptedApiKey: 'unused',
      encryptedWalletKey: 'unused',
      eventTokenHash: hashToken(eventToken),
    })
    await em.flush()
  })

  afterAll(async () => {
    await api?.stop()
  })

  const postEvent = (event: object) =>
    request(api.app).post('/v1/internal/agent-events').set('Authorization', `Bearer ${eventToken}`).send(event)

  const anEvent = (id: string, kind: string, record: Record<string, unknown> = { state: 'completed' }) => ({
    id,
    kind,
    agentLabel: 'Probe wallet',
    occurredAt: new Date().toISOString(),
    record,
  })

  const storedEvents = async (eventId: string) => {
    const rows = await api.runtime.container
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute<{ count: string | number }[]>('select count(*) as count from agent_events where event_id = ?', [eventId])
    return Number(rows[0]?.count)
  }

  it('has its configuration section read from the environment', () => {
    expect(sectionOf(api.config, probeSection)).toEqual({ label: 'from the environment' })
  })

  it('gets each new agent event of its kind once, and no event of another kind', async () => {
    expect((await postEvent(anEvent('evt-1', 'connection'))).status).toBe(200)
    expect((await postEvent(anEvent('evt-1', 'connection'))).body.data).toEqual({ id: 'evt-1', isDuplicate: true })
    expect((await postEvent(anEvent('evt-2', 'proof'))).status).toBe(200)
    expect(seen.events.map((entry) => [entry.orgId, entry.event.id, entry.event.kind])).toEqual([
      [orgId, 'evt-1', 'connection'],
    ])
  })

  it('leaves an event unstored when its handler fails, so that the retry is applied', async () => {
    const refused = await postEvent(anEvent('evt-3', 'connection', { fail: true }))
    expect(refused.status).toBe(409)
    expect(await storedEvents('evt-3')).toBe(0)
    const retried = await postEvent(anEvent('evt-3', 'connection'))
    expect(retried.body.data).toEqual({ id: 'evt-3', isDuplicate: false })
    expect(await storedEvents('evt-3')).toBe(1)
  })

  it('applies a batch in order, once per event id, and keeps the events before a failing one', async () => {
    const seenBefore = seen.events.length
    const batch = await postEvent({
      events: [anEvent('evt-b1', 'connection'), anEvent('evt-b1', 'connection'), anEvent('evt-b2', 'connection')],
    })
    expect(batch.status).toBe(200)
    expect(batch.body.data.results).toEqual([
      { id: 'evt-b1', isDuplicate: false },
      { id: 'evt-b1', isDuplicate: true },
      { id: 'evt-b2', isDuplicate: false },
    ])
    expect(seen.events.map((entry) => entry.event.id).filter((id) => id.startsWith('evt-b'))).toEqual([
      'evt-b1',
      'evt-b2',
    ])

    const failing = await postEvent({
      events: [
        anEvent('evt-b3', 'connection'),
        anEvent('evt-b4', 'connection', { fail: true }),
        anEvent('evt-b5', 'connection'),
      ],
    })
    expect(failing.status).toBe(409)
    expect([await storedEvents('evt-b3'), await storedEvents('evt-b4'), await storedEvents('evt-b5')]).toEqual([
      1, 0, 0,
    ])
    const resent = await postEvent({
      events: [anEvent('evt-b3', 'connection'), anEvent('evt-b4', 'connection'), anEvent('evt-b5', 'connection')],
    })
    expect(resent.body.data.results).toEqual([
      { id: 'evt-b3', isDuplicate: true },
      { id: 'evt-b4', isDuplicate: false },
      { id: 'evt-b5', isDuplicate: false },
    ])
    // The counts test below counts what the probe saw before this test.
    seen.events.length = seenBefore
  })

  it('has its counts on the activity count and its summary on the dashboard', async () => {
    const counts = await request(api.app)
      .get(`/v1/orgs/activity-count/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(counts.body.data).toEqual({
      members: 1,
      dids: 0,
      clientCredentials: 0,
      invitations: { pending: 0, accepted: 0, rejected: 0 },
      schemas: 0,
      probeEvents: 2,
    })
    const dashboard = await request(api.app)
      .get(`/v1/orgs/dashboard/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(dashboard.body.data).toEqual({
      members: 1,
      pendingInvitations: 0,
      dids: 0,
      hasClientCredentials: false,
      schemas: 0,
      hasProbeEvents: true,
    })
  })

  it('hears of an organization’s deletion before it goes, and can stop it', async () => {
    seen.refuseDelete = true
    const refused = await request(api.app).delete(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`)
    expect(refused.status).toBe(409)
    await request(api.app).get(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`).expect(200)

    seen.refuseDelete = false
    await request(api.app).delete(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`).expect(200)
    expect(seen.deleted).toEqual([orgId])
    await request(api.app).delete(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`).expect(403)
  })
})
