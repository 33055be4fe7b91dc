import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { SdJwtVcService } from '@credo-ts/core'
import { OpenId4VcHolderApi } from '@credo-ts/openid4vc'

import { OutboundTargetGuard } from '../../agent/src/transport/outbound-target-guard'
import { type InProcessAgent, startInProcessAgent } from '../helpers/agent-in-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

/**
 * Credo fetches URLs that a presented credential or an offer names with the agent's `fetch` (AgentDependencies):
 * through Credo's own SD-JWT VC status list fetcher, the agent refuses an address nobody configured and reaches the
 * platform it was configured with (agent/src/transport/guarded-fetch.ts).
 */
describe('the fetch the agent gives Credo', () => {
  let platform: http.Server
  let internal: http.Server
  let internalHits = 0
  let agent: InProcessAgent

  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  let platformOrigin: string
  let internalOrigin: string

  beforeAll(async () => {
    platform = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end('status.list.token'),
    )
    internal = http.createServer((_req, res) => {
      internalHits++
      res.writeHead(200).end('internal')
    })
    platformOrigin = await listen(platform)
    internalOrigin = await listen(internal)
    agent = await startInProcessAgent({
      outboundTargets: new OutboundTargetGuard(false, { trustedOrigins: [platformOrigin] }),
    })
  })
  afterAll(async () => {
    await agent?.close()
    platform.close()
    internal.close()
  })

  const statusListFetcher = () =>
    (
      agent.agent.dependencyManager.resolve(SdJwtVcService) as unknown as {
        getStatusListFetcher(context: unknown): (uri: string) => Promise<string>
      }
    ).getStatusListFetcher(agent.agent.context)

  it("refuses a credential's status list uri on a private address, without connecting", async () => {
    await expect(statusListFetcher()(`${internalOrigin}/v1/status-lists/1`)).rejects.toThrow(
      /must not point at a private, loopback, link-local or metadata address/,
    )
    expect(internalHits).toBe(0)
  })

  it('fetches a status list from the platform the agent was configured with', async () => {
    await expect(statusListFetcher()(`${platformOrigin}/v1/status-lists/1`)).resolves.toBe('status.list.token')
  })

  it("refuses an OpenID4VC offer's credential_offer_uri on a private address (the holder's resolve)", async () => {
    let holder: OpenId4VcTestAgent | undefined
    try {
      holder = await startOpenId4VcAgent({ outboundTargets: new OutboundTargetGuard(false) })
      const offerUri = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${internalOrigin}/offer`)}`
      await expect(
        holder.agent.dependencyManager.resolve(OpenId4VcHolderApi).resolveCredentialOffer(offerUri),
      ).rejects.toThrow()
      expect(internalHits).toBe(0)
    } finally {
      await holder?.close()
    }
  })
})
