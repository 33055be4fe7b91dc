import { tmpdir } from 'node:os'
import request from 'supertest'
import { AGENT_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { startApi, type TestApi } from '../helpers/api'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { type AgentPorts, claimAgentPorts } from '../helpers/ports'

const programs = writeFakeAgentPrograms(tmpdir())
afterAll(() => programs.remove())

/** The internal events route checks bodies with the contract's parseAgentEventBody: bad input is a 400, never a 500. */
describe('the internal agent-events route and the event contract', () => {
  let api: TestApi
  let token: string

  let agentPorts: AgentPorts
  beforeAll(async () => {
    agentPorts = await claimAgentPorts()
    api = await startApi({
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Events' })
      .expect(201)
    const deadline = Date.now() + 30_000
    for (;;) {
      try {
        const env = (await (await fetch(`http://127.0.0.1:${agentPorts.admin + 1}/env`)).json()) as Record<
          string,
          string
        >
        token = env.AGENT_EVENT_TOKEN
        break
      } catch (error) {
        if (Date.now() > deadline) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  })
  afterAll(async () => {
    await api?.stop()
  })

  const post = (body: string) =>
    request(api.app)
      .post(AGENT_EVENTS_PATH)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(body)

  const event = (overrides: Record<string, unknown> = {}) => ({
    id: `evt-${Math.random()}`,
    kind: 'proof',
    agentLabel: 'Events',
    occurredAt: new Date().toISOString(),
    record: { state: 'done' },
    ...overrides,
  })

  it('records a valid event', async () => {
    const response = await post(JSON.stringify(event({ id: 'contract-1' })))
    expect(response.status).toBe(200)
    expect(response.body.data).toEqual({ id: 'contract-1', isDuplicate: false })
  })

  it.each([
    ['an impossible date', { occurredAt: '2026-02-31T00:00:00Z' }, 'occurredAt'],
    ['a date that overflows', { occurredAt: '+275760-09-14T00:00:00.001Z' }, 'occurredAt'],
    ['an unknown kind', { kind: 'nonsense' }, 'kind'],
  ])('answers 400 naming the field for %s', async (_name, overrides, field) => {
    const response = await post(JSON.stringify(event(overrides)))
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
    expect(response.body.errors).toEqual([expect.objectContaining({ field })])
  })

  // The request pipeline refuses a __proto__ key in any body before a route sees it (common/request-input.ts);
  // the contract's own check (common/agent-contract/events.test.ts) stands behind it.
  it('answers 400 for a __proto__ key in an event and in a batch', async () => {
    const withProto = JSON.stringify(event()).replace(/^\{/, '{"__proto__":{"polluted":true},')
    const refused = [{ field: 'body', message: 'must not contain a "__proto__" key' }]
    const single = await post(withProto)
    expect(single.status).toBe(400)
    expect(single.body.errors).toEqual(refused)
    const batch = await post(`{"events":[${JSON.stringify(event())},${withProto}]}`)
    expect(batch.status).toBe(400)
    expect(batch.body.errors).toEqual(refused)
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })
})
