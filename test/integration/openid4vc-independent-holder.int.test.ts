import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
  X509Certificate,
} from 'node:crypto'

import { OpenId4VcVerificationSessionState } from '@credo-ts/openid4vc'
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc'
import { OpenID4VCIClientV1_0_15 } from '@sphereon/oid4vci-client'

import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import type { X509CertificateRecord } from '../../agent/src/openid4vc/x509/x509-certificate.record'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

const VCT = 'https://acme.example/credentials/employee'

/**
 * A holder that shares no code with Credo: Sphereon's OID4VCI client (@sphereon/oid4vci-client, draft 15 with the
 * 1.0 nonce endpoint) receives the credential, the SD-JWT library (@sd-jwt/sd-jwt-vc) verifies it and makes the
 * presentation, and the OID4VP side (fetching and checking the signed request, posting the response) is written
 * here on node:crypto. Keys are node:crypto P-256 keys.
 */
describe('OpenID4VC with an independent holder (Sphereon OID4VCI client and @sd-jwt, HTTP)', () => {
  let organization: OpenId4VcTestAgent
  let issuance: X509CertificateRecord
  let verification: X509CertificateRecord

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    const org = organization.agent.context
    const certificates = org.resolve(X509CertificatesService)
    issuance = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Acme credentials', country: 'AT' },
      sanDnsNames: ['localhost'],
    })
    verification = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier' },
      sanDnsNames: ['localhost'],
    })
  })

  afterAll(async () => {
    await organization?.close()
  })

  it('receives an SD-JWT VC with a transaction code and presents two of its claims to the verifier', async () => {
    const org = organization.agent.context
    const issuer = await org.resolve(IssuersService).create(org, { display: [{ name: 'Acme' }] })
    const template = await org.resolve(CredentialTemplatesService).create(org, issuer.issuerId, {
      name: 'Employee',
      format: 'dc+sd-jwt',
      vct: VCT,
      claims: [{ path: ['given_name'], mandatory: true }, { path: ['family_name'] }, { path: ['department'] }],
      signer: { method: 'x5c' },
    })
    const offer = await org.resolve(CredentialOffersService).create(org, issuer.issuerId, {
      credentials: [
        { templateId: template.id, claims: { given_name: 'Ada', family_name: 'Lovelace', department: 'Engines' } },
      ],
      txCode: { length: 6 },
    })

    // Issuance with Sphereon's client.
    const holderKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const holderJwk = holderKey.publicKey.export({ format: 'jwk' })
    const client = await OpenID4VCIClientV1_0_15.fromURI({ uri: offer.offerUri, clientId: 'independent-wallet' })
    await client.acquireAccessToken({ pin: offer.txCode })
    const response = await client.acquireCredentials({
      credentialConfigurationId: template.id,
      format: 'dc+sd-jwt',
      alg: 'ES256',
      jwk: { kty: 'EC', crv: 'P-256', x: String(holderJwk.x), y: String(holderJwk.y) },
      proofCallbacks: {
        signCallback: async (jwt) => signJwt(holderKey.privateKey, jwt.header ?? {}, jwt.payload ?? {}),
      },
    })
    const credential = credentialOf(response as unknown as Record<string, unknown>)

    // The wallet checks the credential itself: x5c chain to the issuance certificate, digests, holder binding.
    const sdJwt = sdJwtInstance(holderKey.privateKey)
    const verified = await sdJwt.verify(credential)
    expect(verified.payload).toMatchObject({
      vct: VCT,
      given_name: 'Ada',
      family_name: 'Lovelace',
      department: 'Engines',
      cnf: { jwk: { kty: 'EC', crv: 'P-256', x: holderJwk.x, y: holderJwk.y } },
    })

    // Presentation: a signed request fetched and checked by hand, a direct_post response.
    const verifier = await org.resolve(VerifiersService).create(org, { clientName: 'Acme HR' })
    const presentations = org.resolve(PresentationsService)
    const request = await presentations.createRequest(org, {
      verifierId: verifier.verifierId,
      responseMode: 'direct_post',
      query: {
        type: 'dcql',
        dcql: {
          credentials: [
            {
              id: 'employee',
              format: 'dc+sd-jwt',
              meta: { vct_values: [VCT] },
              claims: [{ path: ['given_name'] }, { path: ['department'] }],
            },
          ],
        },
      },
    })
    const requestUri = new URL(request.requestUri).searchParams.get('request_uri')
    const requestJwt = await (await fetch(String(requestUri))).text()
    const requestPayload = verifyRequestJwt(requestJwt, verification.certificate)
    expect(requestPayload).toMatchObject({ client_id: 'x509_san_dns:localhost', response_mode: 'direct_post' })
    const asked = (requestPayload.dcql_query as { credentials: { id: string; claims: { path: string[] }[] }[] })
      .credentials[0]
    const presentation = await sdJwt.present(
      credential,
      Object.fromEntries(asked.claims.map((claim) => [claim.path[0], true])),
      {
        kb: {
          payload: {
            iat: Math.floor(Date.now() / 1000),
            aud: String(requestPayload.client_id),
            nonce: String(requestPayload.nonce),
          },
        },
      },
    )
    const answer = await fetch(String(requestPayload.response_uri), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        vp_token: JSON.stringify({ [asked.id]: [presentation] }),
        state: String(requestPayload.state),
      }).toString(),
    })
    expect(answer.status).toBe(200)

    const result = await presentations.get(org, request.session.id)
    expect(result.session.state).toBe(OpenId4VcVerificationSessionState.ResponseVerified)
    expect(result.disclosed).toEqual([
      {
        queryId: 'employee',
        format: 'dc+sd-jwt',
        issuerCertificateSubject: 'C=AT, CN=Acme credentials',
        type: VCT,
        claims: { given_name: 'Ada', department: 'Engines' },
      },
    ])
  })

  /** Verifies the credential's x5c chain against the organization's issuance certificate. */
  function sdJwtInstance(holderPrivateKey: KeyObject): SDJwtVcInstance {
    return new SDJwtVcInstance({
      hasher: (data) =>
        new Uint8Array(
          createHash('sha256')
            .update(typeof data === 'string' ? data : Buffer.from(data))
            .digest(),
        ),
      hashAlg: 'sha-256',
      saltGenerator: () => randomBytes(16).toString('base64url'),
      kbSigner: (data) =>
        sign('sha256', Buffer.from(data), { key: holderPrivateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
      kbSignAlg: 'ES256',
      verifier: (data, signature) => {
        const [header] = data.split('.')
        const { x5c } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { x5c: string[] }
        const leaf = new X509Certificate(Buffer.from(x5c[0], 'base64'))
        const trusted = new X509Certificate(Buffer.from(issuance.certificate, 'base64'))
        // The organization's self-signed issuance certificate is the trust anchor here.
        if (!leaf.raw.equals(trusted.raw) || !leaf.verify(trusted.publicKey)) return false
        return verify(
          'sha256',
          Buffer.from(data),
          { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' },
          Buffer.from(signature, 'base64url'),
        )
      },
    })
  }
})

function signJwt(key: KeyObject, header: object, payload: object): string {
  const input = `${base64url({ ...header, alg: 'ES256' })}.${base64url(payload)}`
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

/** The request JWT's payload, after checking its signature with the x5c leaf and that leaf against the trusted one. */
function verifyRequestJwt(jwt: string, trustedCertificate: string): Record<string, unknown> {
  const [header, payload, signature] = jwt.split('.')
  const { x5c, alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { x5c: string[]; alg: string }
  expect(alg).toBe('ES256')
  const leaf = new X509Certificate(Buffer.from(x5c[0], 'base64'))
  expect(leaf.raw.equals(Buffer.from(trustedCertificate, 'base64'))).toBe(true)
  const key = createPublicKey(leaf.publicKey.export({ format: 'pem', type: 'spki' }))
  expect(
    verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    ),
  ).toBe(true)
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
}

/** The one credential of a credential response (OID4VCI 1.0 `credentials`, or draft 13's `credential`). */
function credentialOf(response: Record<string, unknown>): string {
  const credentials = response.credentials as { credential: string }[] | undefined
  const credential = credentials?.[0]?.credential ?? response.credential
  if (typeof credential !== 'string') throw new Error(`no credential in ${JSON.stringify(response).slice(0, 300)}`)
  return credential
}
