import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto'
import { createServer, type Server } from 'node:http'

import { Kms, type SdJwtVcRecord } from '@credo-ts/core'
import { OpenId4VcHolderApi, OpenId4VciAuthorizationFlow, OpenId4VcIssuanceSessionState } from '@credo-ts/openid4vc'
import { InvalidStateError } from '@idplane/common'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { waitUntil } from '../helpers/agent-process'
import { freePort } from '../helpers/ports'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

/**
 * An external OAuth 2 authorization server in the test: metadata, a JWKS and a token endpoint that answers any
 * authorization code with an RFC 9068 access token (ES256) for the issuer, carrying the offer's `issuer_state` and the
 * template's scope.
 */
async function startAuthorizationServer(options: {
  audience: () => string
  issuerState: () => string
  scope: () => string
}) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const port = await freePort()
  const url = `http://localhost:${port}`
  const tokens: string[] = []
  const server: Server = createServer((req, res) => {
    const json = (body: unknown, type = 'application/json') => {
      res.writeHead(200, { 'content-type': type })
      res.end(JSON.stringify(body))
    }
    if (req.url === '/.well-known/oauth-authorization-server') {
      return json({
        issuer: url,
        token_endpoint: `${url}/token`,
        authorization_endpoint: `${url}/authorize`,
        jwks_uri: `${url}/jwks.json`,
        code_challenge_methods_supported: ['S256'],
      })
    }
    if (req.url === '/jwks.json')
      return json({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'as-1' }] }, 'application/jwk-set+json')
    if (req.url === '/token' && req.method === 'POST') {
      const now = Math.floor(Date.now() / 1000)
      const accessToken = signJwt(
        privateKey,
        { typ: 'at+jwt', alg: 'ES256', kid: 'as-1' },
        {
          iss: url,
          aud: options.audience(),
          sub: 'employee-7',
          client_id: 'wallet',
          iat: now,
          exp: now + 300,
          jti: randomUUID(),
          issuer_state: options.issuerState(),
          scope: options.scope(),
        },
      )
      tokens.push(accessToken)
      return json({ access_token: accessToken, token_type: 'Bearer', expires_in: 300 })
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(port, resolve))
  return {
    url,
    tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function signJwt(key: KeyObject, header: object, payload: object): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

describe('OpenID4VC authorization code flow with an external authorization server', () => {
  let organization: OpenId4VcTestAgent
  let wallet: OpenId4VcTestAgent
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>
  let credentialIssuer = ''
  let issuerState = ''
  let scope = ''

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    wallet = await startOpenId4VcAgent()
    authorizationServer = await startAuthorizationServer({
      audience: () => credentialIssuer,
      issuerState: () => issuerState,
      scope: () => scope,
    })
  })

  afterAll(async () => {
    await authorizationServer?.close()
    await wallet?.close()
    await organization?.close()
  })

  it('issues against an access token of the authorization server the issuer lists', async () => {
    const org = organization.agent.context
    const did = String(
      (
        await organization.agent.dids.create({
          method: 'key',
          options: { createKey: { type: { kty: 'OKP', crv: 'Ed25519' } } },
        })
      ).didState.did,
    )
    const issuers = org.resolve(IssuersService)
    const issuer = await issuers.create(org, { authorizationServers: [authorizationServer.url] })
    credentialIssuer = issuers.credentialIssuerUrl(issuer.issuerId)
    const template = await org.resolve(CredentialTemplatesService).create(org, issuer.issuerId, {
      name: 'Staff badge',
      format: 'dc+sd-jwt',
      vct: 'https://acme.example/credentials/staff',
      claims: [{ path: ['badge'], mandatory: true }],
      signer: { method: 'did', did },
      authorization: { type: 'external', authorizationServerUrl: authorizationServer.url },
    })
    scope = template.id
    const offers = org.resolve(CredentialOffersService)
    const offer = await offers.create(org, issuer.issuerId, {
      credentials: [{ templateId: template.id, claims: { badge: 'B-7' } }],
    })
    issuerState = String(offer.session.authorization?.issuerState)
    expect(issuerState).not.toBe('undefined')

    const holder = wallet.agent.context
    // The cloud wallet has no browser for the authorization server's login.
    await expect(holder.resolve(HolderService).acceptOffer(holder, { offerUri: offer.offerUri })).rejects.toThrow(
      InvalidStateError,
    )

    // A wallet that has one (Credo's holder API, the login skipped: this server grants any code).
    const api = holder.resolve(OpenId4VcHolderApi)
    const resolved = await api.resolveCredentialOffer(offer.offerUri)
    const authorization = await api.resolveOpenId4VciAuthorizationRequest(resolved, {
      clientId: 'wallet',
      redirectUri: 'https://wallet.example/cb',
      scope: [template.id],
    })
    expect(authorization.authorizationFlow).toBe(OpenId4VciAuthorizationFlow.Oauth2Redirect)
    if (authorization.authorizationFlow !== OpenId4VciAuthorizationFlow.Oauth2Redirect) return
    expect(authorization.authorizationRequestUrl.startsWith(`${authorizationServer.url}/authorize`)).toBe(true)
    const token = await api.requestToken({
      resolvedCredentialOffer: resolved,
      code: 'granted-by-login',
      clientId: 'wallet',
      redirectUri: 'https://wallet.example/cb',
      codeVerifier: authorization.codeVerifier,
    })
    expect(authorizationServer.tokens).toContain(token.accessToken)
    const response = await api.requestCredentials({
      resolvedCredentialOffer: resolved,
      ...token,
      clientId: 'wallet',
      credentialBindingResolver: async () => {
        const { keyId, publicJwk } = await wallet.agent.kms.createKey({ type: { kty: 'EC', crv: 'P-256' } })
        const jwk = Kms.PublicJwk.fromPublicJwk(publicJwk)
        jwk.keyId = keyId
        return { method: 'jwk', keys: [jwk] }
      },
    })
    const record = response.credentials[0].record as SdJwtVcRecord
    expect(record.firstCredential.prettyClaims).toMatchObject({
      badge: 'B-7',
      vct: 'https://acme.example/credentials/staff',
    })
    const session = await waitUntil(async () => {
      const found = await offers.get(org, offer.session.id)
      return found.state === OpenId4VcIssuanceSessionState.Completed ? found : undefined
    })
    expect(session.authorization?.subject).toBe('employee-7')
  })
})
