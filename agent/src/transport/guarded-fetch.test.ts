import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'

import { GUARDED_FETCH_LIMITS, guardedFetch } from './guarded-fetch'
import { OutboundTargetGuard } from './outbound-target-guard'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** A loopback server answering each path with its handler, keeping what it was sent. */
async function aServer(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>) {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      })
      const route = routes[req.url ?? '']
      if (route) route(req, res)
      else res.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    seen,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

type Server = Awaited<ReturnType<typeof aServer>>

describe('guardedFetch (the fetch Credo gets)', () => {
  let platform: Server
  let elsewhere: Server

  beforeAll(async () => {
    platform = await aServer({
      '/list': (_req, res) => res.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end('a.b.c'),
      '/token': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
      '/to-elsewhere': (_req, res) => res.writeHead(302, { location: `${elsewhere.origin}/secret` }).end(),
      '/see-other': (_req, res) => res.writeHead(303, { location: '/list' }).end(),
      '/same-origin': (_req, res) => res.writeHead(307, { location: '/token' }).end(),
      '/other-origin': (_req, res) => res.writeHead(307, { location: `${elsewhere.origin}/secret` }).end(),
      '/loop': (_req, res) => res.writeHead(307, { location: '/loop' }).end(),
      '/big': (_req, res) => res.writeHead(200).end(Buffer.alloc(2048, 'x')),
      '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('compressed answer')),
      '/bomb': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(100_000))),
      '/never': () => undefined,
      '/empty': (_req, res) => res.writeHead(204).end(),
    })
    elsewhere = await aServer({ '/secret': (_req, res) => res.writeHead(200).end('internal') })
  })
  afterAll(async () => {
    await platform.close()
    await elsewhere.close()
  })
  beforeEach(() => {
    platform.seen.length = 0
    elsewhere.seen.length = 0
  })

  const trustingPlatform = () => guardedFetch(new OutboundTargetGuard(false, { trustedOrigins: [platform.origin] }))

  it('refuses a private address nobody configured, before connecting, as fetch fails (TypeError)', async () => {
    const error = await guardedFetch(new OutboundTargetGuard(false))(`${elsewhere.origin}/secret`).catch((e) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(String(error.message)).toMatch(/must not point at a private, loopback, link-local or metadata address/)
    expect(elsewhere.seen).toHaveLength(0)
  })

  it('refuses the cloud metadata address and names that always mean this machine', async () => {
    const fetch = guardedFetch(new OutboundTargetGuard(false))
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://localhost:1/', 'http://metadata/x']) {
      await expect(fetch(url)).rejects.toThrow(/must not point at a private/)
    }
  })

  it('reaches an origin the operator configured (the platform, the agent itself) with headers and body', async () => {
    const response = await trustingPlatform()(`${platform.origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'DPoP abc' },
      body: new URLSearchParams({ grant_type: 'pre-authorized_code', code: '42' }),
    })
    expect(response.status).toBe(200)
    expect(response.ok).toBe(true)
    expect(response.url).toBe(`${platform.origin}/token`)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({ ok: true })
    expect(platform.seen[0]).toMatchObject({
      method: 'POST',
      url: '/token',
      body: 'grant_type=pre-authorized_code&code=42',
      headers: { authorization: 'DPoP abc', 'content-type': 'application/x-www-form-urlencoded' },
    })
  })

  it('checks every redirect: a trusted origin cannot send it to a private one', async () => {
    const error = await trustingPlatform()(`${platform.origin}/to-elsewhere`).catch((e) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(String(error.message)).toContain(`${elsewhere.origin}/secret must not point at a private`)
    expect(elsewhere.seen).toHaveLength(0)
  })

  it('follows a 303 after a POST as a GET without the body, and says it was redirected', async () => {
    const response = await trustingPlatform()(`${platform.origin}/see-other`, { method: 'POST', body: 'x=1' })
    expect(await response.text()).toBe('a.b.c')
    expect(response.redirected).toBe(true)
    expect(response.url).toBe(`${platform.origin}/list`)
    expect(platform.seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['POST /see-other x=1', 'GET /list '])
  })

  it('keeps the Authorization header on a same-origin redirect and drops it on a cross-origin one, as fetch does', async () => {
    const fetch = guardedFetch(new OutboundTargetGuard(true))
    await fetch(`${platform.origin}/same-origin`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: 'a' })
    expect(platform.seen.map((s) => [s.url, s.headers.authorization, s.body])).toEqual([
      ['/same-origin', 'Bearer t', 'a'],
      ['/token', 'Bearer t', 'a'],
    ])
    await fetch(`${platform.origin}/other-origin`, { headers: { authorization: 'Bearer t', accept: 'text/plain' } })
    expect(elsewhere.seen).toHaveLength(1)
    expect(elsewhere.seen[0].headers.authorization).toBeUndefined()
    expect(elsewhere.seen[0].headers.accept).toBe('text/plain')
  })

  it("hands a redirect back when the caller asks for 'manual'", async () => {
    const response = await trustingPlatform()(`${platform.origin}/see-other`, { redirect: 'manual' })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/list')
  })

  it('stops after the redirect limit', async () => {
    await expect(trustingPlatform()(`${platform.origin}/loop`)).rejects.toThrow(
      `redirects more than ${GUARDED_FETCH_LIMITS.maxRedirects} times`,
    )
    expect(platform.seen).toHaveLength(GUARDED_FETCH_LIMITS.maxRedirects + 1)
  })

  it('bounds the answer, compressed or expanded, and the time', async () => {
    const limits = { timeoutMs: 300, maxBytes: 1024, maxRedirects: 1 }
    const fetch = guardedFetch(new OutboundTargetGuard(true), limits)
    await expect(fetch(`${platform.origin}/big`)).rejects.toThrow('answers more than 1024 bytes')
    await expect(fetch(`${platform.origin}/bomb`)).rejects.toThrow('expands to more than 1024 bytes')
    const started = Date.now()
    await expect(fetch(`${platform.origin}/never`)).rejects.toThrow('no answer within 300 ms')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('decompresses what it is answered compressed, and gives no body for a 204', async () => {
    const fetch = guardedFetch(new OutboundTargetGuard(true))
    const gzipped = await fetch(`${platform.origin}/gzip`)
    expect(await gzipped.text()).toBe('compressed answer')
    expect(gzipped.headers.get('content-encoding')).toBeNull()
    const empty = await fetch(`${platform.origin}/empty`)
    expect(empty.status).toBe(204)
    expect(empty.body).toBeNull()
  })

  it("ends with the caller's abort (Credo's fetchWithTimeout aborts)", async () => {
    const controller = new AbortController()
    const pending = guardedFetch(new OutboundTargetGuard(true))(`${platform.origin}/never`, {
      signal: controller.signal,
    })
    setTimeout(() => controller.abort(), 50)
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
