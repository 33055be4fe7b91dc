import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

import { createRevocationRegistryDefinition, type RevocationRegistryDefinition } from '../anoncreds/revocation'
import { OutboundTargetGuard } from '../transport/outbound-target-guard'
import { downloadTailsFile, TailsFileError } from './ledger-tails-files'

const fixtures = path.join(__dirname, '../../../test/fixtures/anoncreds-revocation')
const credentialDefinition = JSON.parse(
  readFileSync(path.join(fixtures, 'anoncreds-credential-definition.json'), 'utf8'),
).credentialDefinition

/** A tails file server at the test's edge: each path answers what the test put there. */
describe('downloading a tails file', () => {
  let server: Server
  let base: string
  let definition: RevocationRegistryDefinition
  let tails: Uint8Array
  const routes = new Map<string, { status: number; body: Uint8Array }>()
  const at = (location: string) => ({
    ...definition,
    value: { ...definition.value, tailsLocation: `${base}${location}` },
  })

  beforeAll(async () => {
    const made = await createRevocationRegistryDefinition({
      credentialDefinition,
      credentialDefinitionId: 'cred-def',
      issuerId: 'issuer',
      tag: 't',
      maximumCredentialNumber: 4,
      tailsLocation: 'pending',
      tailsThreads: 0,
    })
    definition = made.revocationRegistryDefinition
    tails = made.tailsFile
    server = createServer((req, res) => {
      const route = routes.get(req.url ?? '')
      res.writeHead(route?.status ?? 404, { 'content-type': 'application/octet-stream' })
      res.end(route ? Buffer.from(route.body) : undefined)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    routes.set('/good', { status: 200, body: tails })
    const altered = Uint8Array.from(tails)
    altered[100] ^= 1
    routes.set('/altered', { status: 200, body: altered })
    routes.set('/longer', { status: 200, body: new Uint8Array(tails.length + 1) })
    routes.set('/moved', { status: 302, body: new Uint8Array() })
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('answers the file whose hash is the definition tailsHash', async () => {
    expect(Buffer.from(await downloadTailsFile(at('/good'))).equals(Buffer.from(tails))).toBe(true)
  })

  it('refuses another file, a longer one, a missing one and a redirect, each with a clear error', async () => {
    const refusal = (location: string) =>
      downloadTailsFile(at(location)).then(
        () => new Error('downloaded'),
        (error: unknown) => error as Error,
      )
    const altered = await refusal('/altered')
    expect(altered).toBeInstanceOf(TailsFileError)
    expect(altered.message).toMatch(`the definition's tailsHash is ${definition.value.tailsHash}`)
    expect((await refusal('/longer')).message).toMatch(/larger than the registry's/)
    expect((await refusal('/absent')).message).toMatch(/could not be downloaded \(HTTP 404\)/)
    expect((await refusal('/moved')).message).toMatch(/HTTP 302/)
  })

  it('refuses a location the outgoing-target rule refuses, and a definition it cannot read', async () => {
    const guarded = await downloadTailsFile(at('/good'), { guard: new OutboundTargetGuard(false) }).then(
      () => new Error('downloaded'),
      (error: unknown) => error as Error,
    )
    expect(guarded).toBeInstanceOf(TailsFileError)
    expect(guarded.message).toMatch(/is refused/)
    await expect(downloadTailsFile({ ...definition, value: {} })).rejects.toThrow(TailsFileError)
    await expect(
      downloadTailsFile({ ...definition, value: { ...definition.value, tailsLocation: 'ftp://x/y' } }),
    ).rejects.toThrow(/not an http\(s\) URL/)
  })
})
