import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import request from 'supertest'
import { ShortUrls } from '../../api/src/modules/short-urls/short-urls.service'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

const INDEX = '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1a2b.js"></script>'
const SCRIPT = 'console.log("the console")'.repeat(40)
const INVITATION = { '@type': 'https://didcomm.org/out-of-band/1.1/invitation', '@id': 'inv-1', label: 'Acme' }
const OOB = Buffer.from(JSON.stringify(INVITATION)).toString('base64url')

/** A stand-in for dist/console: what scripts/build-console.mjs writes (index, hashed assets with .br/.gz copies). */
function aConsoleBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'idplane-console-'))
  mkdirSync(path.join(dir, 'assets'))
  writeFileSync(path.join(dir, 'index.html'), INDEX)
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), SCRIPT)
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.gz'), gzipSync(SCRIPT))
  writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.br'), brotliCompressSync(SCRIPT))
  writeFileSync(path.join(dir, 'assets', 'plain-9f9f.css'), 'body{color:red}')
  return dir
}

/** Issue 26: the API serves the built console at /console under its security headers. */
describe('the console served by the API', () => {
  let api: TestApi
  let dir: string

  beforeAll(async () => {
    dir = aConsoleBuild()
    api = await startApi({ CONSOLE_DIR: dir, API_PUBLIC_URL: 'https://id.example.test' })
  })

  afterAll(async () => {
    await api?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it.each([
    '/console',
    '/console/',
    '/console/orgs/4f1c2d9e-0000-4000-8000-000000000000/agent',
    '/console/wallet/receive',
  ])('answers the app for %s, under the CSP and never cached', async (route) => {
    const page = await request(api.app).get(route).expect(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.text).toBe(INDEX)
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/)
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
    expect(page.headers['cache-control']).toBe('no-store')
  })

  it('serves a hashed asset precompressed when the browser accepts it, cached for a year', async () => {
    const brotli = await request(api.app)
      .get('/console/assets/app-1a2b.js')
      .set('Accept-Encoding', 'gzip, br')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => done(null, Buffer.concat(chunks)))
      })
      .expect(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/)
    // Depending on its version superagent may decode brotli itself; either way the content is the script's.
    const received = brotli.body as Buffer
    expect(received.toString() === SCRIPT ? SCRIPT : brotliDecompressSync(received).toString()).toBe(SCRIPT)

    const gzip = await request(api.app).get('/console/assets/app-1a2b.js').set('Accept-Encoding', 'gzip').expect(200)
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.text).toBe(SCRIPT)

    const identity = await request(api.app)
      .get('/console/assets/app-1a2b.js')
      .set('Accept-Encoding', 'identity')
      .expect(200)
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(identity.text).toBe(SCRIPT)
    expect(gunzipSync(gzipSync(identity.text)).toString()).toBe(SCRIPT)
  })

  it('serves an asset without compressed copies as it is, and top-level files without the long cache', async () => {
    const style = await request(api.app).get('/console/assets/plain-9f9f.css').set('Accept-Encoding', 'br').expect(200)
    expect(style.headers['content-encoding']).toBeUndefined()
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
    const icon = await request(api.app).get('/console/favicon.svg').expect(200)
    expect(icon.headers['content-type']).toBe('image/svg+xml')
    expect(icon.headers['cache-control']).toBe('no-store')
  })

  it('answers 404 with the error body for a file the build does not have, and refuses paths out of the folder', async () => {
    const missing = await request(api.app).get('/console/assets/nope-0000.js').expect(404)
    expect(missing.body).toMatchObject({ statusCode: 404, message: 'No such console file' })
    for (const route of [
      '/console/..%2Findex.html',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/%2e%2e/secret.txt',
    ]) {
      const answer = await request(api.app).get(route)
      // Not a file name of the build: the app's index (a client-side route) or a 404, never a file outside the folder.
      expect([200, 404]).toContain(answer.status)
      if (answer.status === 200) expect(answer.text).toBe(INDEX)
    }
  })

  it('sends a browser following a short invitation link to the wallet page, keeping the invitation query', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const links = api.runtime.container.get(ShortUrls)
    const shortUrl = await links.shorten(`https://agent.example/invite?oob=${OOB}`, { orgId })
    const code = new URL(shortUrl).pathname
    const page = await request(api.app).get(code).set('Accept', 'text/html').expect(302)
    expect(page.headers.location).toBe(`/console/wallet/receive?oob=${OOB}`)
    // Agents still get the invitation itself.
    const json = await request(api.app).get(code).set('Accept', 'application/json').expect(200)
    expect(json.body).toEqual(INVITATION)
    // A target without an invitation parameter is not the wallet's: the browser gets the long URL.
    const plain = await links.shorten('https://agent.example/other', { orgId })
    const other = await request(api.app).get(new URL(plain).pathname).set('Accept', 'text/html').expect(302)
    expect(other.headers.location).toBe('https://agent.example/other')
  })
})

describe('the console when it is not built or turned off', () => {
  it('says the console is not built (404 with a message) when CONSOLE_DIR has no build', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'idplane-console-empty-'))
    const api = await startApi({ CONSOLE_DIR: empty })
    try {
      const answer = await request(api.app).get('/console/').expect(404)
      expect(answer.body.message).toMatch(/not built.*make build/)
      expect(JSON.stringify(answer.body)).not.toContain(empty)
    } finally {
      await api.stop()
      rmSync(empty, { recursive: true, force: true })
    }
  })

  it('serves nothing at /console with CONSOLE_ENABLED=false', async () => {
    const dir = aConsoleBuild()
    const api = await startApi({ CONSOLE_DIR: dir, CONSOLE_ENABLED: 'false' })
    try {
      const answer = await request(api.app).get('/console/').expect(404)
      expect(answer.text).not.toContain('console</title>')
      await request(api.app).get('/console/assets/app-1a2b.js').expect(404)
    } finally {
      await api.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
