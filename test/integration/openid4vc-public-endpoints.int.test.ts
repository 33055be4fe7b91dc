import { Agent, request as httpRequest } from 'node:http'

import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { type InProcessAgent, startInProcessAgent } from '../helpers/agent-in-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

/** GETs over one kept-alive connection, as wallets' HTTP clients do. */
function getAll(urls: string[]): Promise<{ status: number; body: string; type: string }[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const one = (url: string) =>
    new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      httpRequest(url, { agent }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }))
      })
        .on('error', reject)
        .end()
    })
  return urls
    .reduce<
      Promise<{ status: number; body: string; type: string }[]>
    >(async (done, url) => [...(await done), await one(url)], Promise.resolve([]))
    .finally(() => agent.destroy())
}

describe('OpenID4VC public endpoints on the inbound port', () => {
  let organization: OpenId4VcTestAgent
  let plain: InProcessAgent

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    plain = await startInProcessAgent()
  })

  afterAll(async () => {
    await plain?.close()
    await organization?.close()
  })

  it('serves issuer metadata at both well-known forms and answers many requests on one connection', async () => {
    const org = organization.agent.context
    const { issuerId } = await org.resolve(IssuersService).create(org, {})
    const base = organization.endpoint
    const answers = await getAll([
      `${base}/oid4vci/${issuerId}/.well-known/openid-credential-issuer`,
      `${base}/.well-known/openid-credential-issuer/oid4vci/${issuerId}`,
      `${base}/.well-known/oauth-authorization-server/oid4vci/${issuerId}`,
      `${base}/oid4vci/${issuerId}/.well-known/openid-credential-issuer`,
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    expect(JSON.parse(answers[1].body)).toMatchObject({
      credential_issuer: `${base}/oid4vci/${issuerId}`,
      credential_endpoint: `${base}/oid4vci/${issuerId}/credential`,
      nonce_endpoint: `${base}/oid4vci/${issuerId}/nonce`,
    })
    expect(JSON.parse(answers[2].body)).toMatchObject({
      issuer: `${base}/oid4vci/${issuerId}`,
      token_endpoint: `${base}/oid4vci/${issuerId}/token`,
      'pre-authorized_grant_anonymous_access_supported': true,
    })
  })

  it('answers unknown paths with a JSON 404, and DIDComm keeps its own answers on /', async () => {
    const answers = await getAll([`${organization.endpoint}/nothing-here`, `${organization.endpoint}/oid4vci`])
    expect(answers.map((answer) => answer.status)).toEqual([404, 404])
    expect(answers[0].type).toMatch(/^application\/json/)
    expect(JSON.parse(answers[0].body)).toEqual({ error: 'not_found', error_description: 'Not found' })
    const didcomm = await fetch(organization.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    })
    expect(didcomm.status).toBe(415)
  })

  it('answers a body it cannot read with a JSON 400 or 413', async () => {
    const org = organization.agent.context
    const { issuerId } = await org.resolve(IssuersService).create(org, {})
    const token = `${organization.endpoint}/oid4vci/${issuerId}/token`
    const malformed = await fetch(token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":',
    })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The request body could not be read',
    })
    const large = await fetch(token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=${'x'.repeat(2 * 1024 * 1024)}`,
    })
    expect(large.status).toBe(413)
    const unknownGrant = await fetch(token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password',
    })
    expect(unknownGrant.status).toBe(400)
    expect(await unknownGrant.json()).toMatchObject({ error: expect.any(String) })
  })

  it('serves nothing of OpenID4VC on an agent without it', async () => {
    const endpoint = plain.agent.didcomm.config.endpoints[0]
    const answer = await fetch(`${endpoint}/.well-known/openid-credential-issuer/oid4vci/anything`)
    expect(answer.status).toBe(404)
    expect(await answer.text()).toBe('Not found')
  })
})
