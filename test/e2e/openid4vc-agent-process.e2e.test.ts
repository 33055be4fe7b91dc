import { type SpawnedAgent, spawnAgent } from '../helpers/agent-process'

/** The built agent (`node scripts/build.mjs` first) with and without AGENT_OPENID4VC. */
describe('the agent program with AGENT_OPENID4VC', () => {
  let withOpenId4Vc: SpawnedAgent
  let without: SpawnedAgent

  beforeAll(async () => {
    ;[withOpenId4Vc, without] = await Promise.all([
      spawnAgent({ label: 'oid4vc-on', env: { AGENT_OPENID4VC: 'true' } }),
      spawnAgent({ label: 'oid4vc-off' }),
    ])
  }, 240_000)

  afterAll(async () => {
    await Promise.all([withOpenId4Vc?.stop(), without?.stop()])
  })

  it('serves the OpenID4VC public endpoints on the inbound port beside DIDComm only when it is on', async () => {
    const base = await fetch(`${withOpenId4Vc.endpoint}/oid4vci`)
    expect(base.status).toBe(404)
    expect(await base.json()).toEqual({ error: 'not_found', error_description: 'Not found' })
    // An issuer id the agent does not know: Credo's own answer.
    const unknownIssuer = await fetch(`${withOpenId4Vc.endpoint}/.well-known/openid-credential-issuer/oid4vci/nobody`)
    expect(unknownIssuer.status).toBe(404)
    const malformed = await fetch(`${withOpenId4Vc.endpoint}/oid4vp/nobody/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    })
    expect(malformed.status).toBe(400)
    const didcomm = await fetch(withOpenId4Vc.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    })
    expect(didcomm.status).toBe(415)

    const off = await fetch(`${without.endpoint}/oid4vci`)
    expect(off.status).toBe(404)
    expect(await off.text()).toBe('Not found')
    expect((await without.call('GET', '/agent')).status).toBe(200)
  })
})
