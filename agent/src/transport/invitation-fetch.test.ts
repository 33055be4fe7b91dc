import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { agentDependencies } from '@credo-ts/node'
import { InvalidInputError, UpstreamError } from '@idplane/common'

import { fetchInvitation, INVITATION_MAX_BYTES, INVITATION_MAX_REDIRECTS } from './invitation-fetch'
import { OutboundTargetGuard } from './outbound-target-guard'

const INVITATION = {
  '@type': 'https://didcomm.org/out-of-band/1.1/invitation',
  '@id': 'invitation-1',
  label: 'Elsewhere',
  handshake_protocols: ['https://didcomm.org/didexchange/1.1'],
  services: [
    {
      id: '#inline',
      type: 'did-communication',
      serviceEndpoint: 'https://agent.example.com',
      recipientKeys: ['did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH'],
    },
  ],
}
const ENCODED = `https://agent.example.com/?oob=${Buffer.from(JSON.stringify(INVITATION)).toString('base64url')}`

/** A loopback server answering each path with its handler, counting the requests it got. */
async function aServer(routes: Record<string, (res: http.ServerResponse) => void>) {
  const hits: string[] = []
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    const route = routes[req.url ?? '']
    if (route) route(res)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, hits, close: () => new Promise((resolve) => server.close(resolve)) }
}

/**
 * The real rule, with one loopback origin trusted as the operator's own (standing for a public host: a test cannot
 * listen on one): what a redirect from there may reach is decided by the rule itself.
 */
const oneOriginAllowed = (origin: string) => new OutboundTargetGuard(false, { trustedOrigins: [origin] })

function refusalOf(error: unknown): string {
  expect(error).toBeInstanceOf(InvalidInputError)
  return `${(error as InvalidInputError).message} | ${(error as InvalidInputError).fields.map((field) => `${field.field}: ${field.message}`).join('; ')}`
}

describe('fetchInvitation', () => {
  const json = (res: http.ServerResponse, body: unknown = INVITATION) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))

  it('refuses a loopback invitation URL without fetching it', async () => {
    const server = await aServer({ '/inv': (res) => json(res) })
    try {
      const error = await fetchInvitation(
        `${server.origin}/inv`,
        new OutboundTargetGuard(false),
        agentDependencies,
      ).catch((caught: unknown) => caught)
      expect(refusalOf(error)).toMatch(
        /invitationUrl: must not point at a private, loopback, link-local or metadata address/,
      )
      expect(server.hits).toEqual([])
    } finally {
      await server.close()
    }
  })

  it.each([
    'http://localhost/inv',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:0:127.0.0.1]/inv',
    'http://10.0.0.1/inv',
  ])('refuses %s', async (url) => {
    await expect(fetchInvitation(url, new OutboundTargetGuard(false), agentDependencies)).rejects.toThrow(
      InvalidInputError,
    )
  })

  it('fetches a loopback short URL when private targets are allowed', async () => {
    const server = await aServer({ '/inv': (res) => json(res) })
    try {
      const invitation = await fetchInvitation(`${server.origin}/inv`, new OutboundTargetGuard(true), agentDependencies)
      expect(invitation.id).toBe('invitation-1')
      expect(server.hits).toEqual(['/inv'])
    } finally {
      await server.close()
    }
  })

  it('refuses a redirect to a loopback target, and never calls it', async () => {
    const inside = await aServer({ '/secret': (res) => json(res) })
    const outside = await aServer({
      '/inv': (res) => res.writeHead(302, { location: `${inside.origin}/secret` }).end(),
    })
    try {
      const error = await fetchInvitation(
        `${outside.origin}/inv`,
        oneOriginAllowed(outside.origin),
        agentDependencies,
      ).catch((caught: unknown) => caught)
      expect(refusalOf(error)).toMatch(
        /invitationUrl: redirects to a target that must not point at a private, loopback/,
      )
      expect(outside.hits).toEqual(['/inv'])
      expect(inside.hits).toEqual([])
    } finally {
      await Promise.all([inside.close(), outside.close()])
    }
  })

  it('follows a redirect to an allowed target, and reads an invitation from a redirect to an encoded URL', async () => {
    const server = await aServer({
      '/hop': (res) => res.writeHead(301, { location: '/inv' }).end(),
      '/inv': (res) => json(res),
      '/encoded': (res) => res.writeHead(307, { location: ENCODED }).end(),
    })
    try {
      const guard = oneOriginAllowed(server.origin)
      expect((await fetchInvitation(`${server.origin}/hop`, guard, agentDependencies)).id).toBe('invitation-1')
      // The encoded URL is read, not fetched: agent.example.com is never called.
      expect((await fetchInvitation(`${server.origin}/encoded`, guard, agentDependencies)).id).toBe('invitation-1')
      expect(server.hits).toEqual(['/hop', '/inv', '/encoded'])
    } finally {
      await server.close()
    }
  })

  it(`stops after ${INVITATION_MAX_REDIRECTS} redirects and at ${INVITATION_MAX_BYTES} bytes`, async () => {
    const server = await aServer({
      '/loop': (res) => res.writeHead(302, { location: '/loop' }).end(),
      '/huge': (res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('"' + 'x'.repeat(INVITATION_MAX_BYTES + 10) + '"')
      },
    })
    try {
      const guard = oneOriginAllowed(server.origin)
      expect(
        refusalOf(await fetchInvitation(`${server.origin}/loop`, guard, agentDependencies).catch((e: unknown) => e)),
      ).toMatch(/redirects more than 3 times/)
      expect(server.hits.length).toBe(INVITATION_MAX_REDIRECTS + 1)
      expect(
        refusalOf(await fetchInvitation(`${server.origin}/huge`, guard, agentDependencies).catch((e: unknown) => e)),
      ).toMatch(/answers more than/)
    } finally {
      await server.close()
    }
  })

  // Credo's short-URL fetch starts a 15 s timer that it clears only when its fetch returns: a refusal thrown there held
  // the process (a jest worker, an agent stopping) for 15 s.
  it('leaves no timer pending after a refusal or a failed answer', async () => {
    const server = await aServer({ '/down': (res) => res.writeHead(503).end() })
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] })
    try {
      await expect(
        fetchInvitation('http://10.0.0.1/inv', new OutboundTargetGuard(false), agentDependencies),
      ).rejects.toThrow(InvalidInputError)
      expect(jest.getTimerCount()).toBe(0)
      const guard = new OutboundTargetGuard(true)
      await expect(fetchInvitation(`${server.origin}/down`, guard, agentDependencies)).rejects.toThrow(UpstreamError)
      expect(jest.getTimerCount()).toBe(0)
    } finally {
      jest.useRealTimers()
      await server.close()
    }
  })

  it('parses an encoded invitation URL without fetching anything', async () => {
    expect((await fetchInvitation(ENCODED, new OutboundTargetGuard(false), agentDependencies)).id).toBe('invitation-1')
  })

  // Credo would say "InvitationUrl is invalid" for any of these; a server restarting is worth another try.
  it("tells the link's own answer: a 5xx is an upstream failure (502), a 4xx the caller's (400)", async () => {
    const server = await aServer({
      '/down': (res) =>
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ statusCode: 503, message: 'The database is unavailable; retry shortly' })),
      '/text': (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded'),
    })
    try {
      const guard = new OutboundTargetGuard(true)
      const down = await fetchInvitation(`${server.origin}/down`, guard, agentDependencies).catch((e: unknown) => e)
      expect(down).toBeInstanceOf(UpstreamError)
      expect((down as Error).message).toBe(
        'The invitation link answered 503: The database is unavailable; retry shortly',
      )
      const text = await fetchInvitation(`${server.origin}/text`, guard, agentDependencies).catch((e: unknown) => e)
      expect((text as Error).message).toBe('The invitation link answered 500: upstream exploded')
      expect(
        refusalOf(await fetchInvitation(`${server.origin}/gone`, guard, agentDependencies).catch((e: unknown) => e)),
      ).toBe('Invalid invitationUrl: the link answered 404 | invitationUrl: the link answered 404')
    } finally {
      await server.close()
    }
  })
})
