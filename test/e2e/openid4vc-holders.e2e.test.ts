import request from 'supertest'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { waitUntil } from '../helpers/agent-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'
import {
  askedClaims,
  fetchVerifiedRequest,
  type HeldSdJwtVc,
  postResponse,
  presentBuiltByHand,
  presentSdJwtVc,
  receiveSdJwtVc,
  type RequestPayload,
  sdJwtInstance,
} from '../helpers/openid4vc-independent-holder'
import { type Platform, startPlatform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

// One organization agent (the real program, spawned by the API) and one in-process Credo holder for the file.
jest.setTimeout(240_000)

const VCT = 'https://acme.example/credentials/employee'
const MDL = 'org.iso.18013.5.1.mDL'
const NAMESPACE = 'org.iso.18013.5.1'

interface Envelope<T> {
  statusCode: number
  message: string
  data: T
}

interface Certificate {
  id: string
  certificate: string
  status: string
  notAfter: string
}

interface Session {
  id: string
  state: string
  errorMessage?: string
  disclosed?: { queryId: string; format: string; claims: Record<string, unknown> }[]
}

const employeeQuery = {
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
}

const mdlQuery = {
  type: 'dcql',
  dcql: {
    credentials: [
      {
        id: 'mdl',
        format: 'mso_mdoc',
        meta: { doctype_value: MDL },
        claims: [{ path: [NAMESPACE, 'given_name'] }, { path: [NAMESPACE, 'age_over_18'] }],
      },
    ],
  },
}

/**
 * OpenID4VC through the platform API (issue 29, "How it is checked") with two holders: one that shares no code with
 * Credo (Sphereon's OID4VCI client, the @sd-jwt library, OID4VP by hand: test/helpers/openid4vc-independent-holder.ts)
 * receives and presents an SD-JWT VC, and Credo's holder an mdoc signed under the organization's authority. Refusals
 * (a tampered disclosure, a wrong nonce, a replayed response, an expired document signer) are asserted on the API's
 * session read.
 */
describe('OpenID4VC holders through the platform API with a real organization agent', () => {
  let platform: Platform
  let credoHolder: OpenId4VcTestAgent
  let owner: TestUser
  let orgId: string
  let authority: Certificate
  let verification: Certificate
  let issuerId: string
  let employeeTemplateId: string
  let mdlTemplateId: string
  let verifierId: string

  beforeAll(async () => {
    // Verification certificates name the verifier's host (x509_san_dns): the agent's endpoint says localhost.
    ;[platform, credoHolder] = await Promise.all([
      startPlatform({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false', AGENT_PUBLIC_ENDPOINT_BASE: 'http://localhost' }),
      startOpenId4VcAgent(),
    ])
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Acme')

    authority = await createCertificate({
      keyType: 'P-256',
      purpose: 'authority',
      subject: { commonName: 'Acme IACA', organization: 'Acme', country: 'AT' },
    })
    await createCertificate({
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Acme document signer', organization: 'Acme', country: 'AT' },
      issuerCertificateId: authority.id,
    })
    verification = await createCertificate({
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier' },
      sanDnsNames: ['localhost'],
    })
    // Credo's holder trusts the authority (the mdoc's issuer chain) and the verifier's certificate (signed requests).
    const wallet = credoHolder.agent.context
    for (const { certificate } of [authority, verification]) {
      await wallet.resolve(X509CertificatesService).addTrustAnchor(wallet, { certificate })
    }

    issuerId = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/issuers`)
        .send({ display: [{ name: 'Acme' }] })
        .expect(201)
    ).body.data.issuerId as string
    employeeTemplateId = await createTemplate({
      name: 'Employee',
      format: 'dc+sd-jwt',
      vct: VCT,
      claims: [{ path: ['given_name'], mandatory: true }, { path: ['family_name'] }, { path: ['department'] }],
      signer: { method: 'x5c' },
    })
    mdlTemplateId = await createTemplate({
      name: 'Driving licence',
      format: 'mso_mdoc',
      doctype: MDL,
      claims: [
        { path: [NAMESPACE, 'given_name'], mandatory: true },
        { path: [NAMESPACE, 'family_name'], mandatory: true },
        { path: [NAMESPACE, 'age_over_18'] },
      ],
      signer: { method: 'x5c' },
      validityDays: 30,
    })
    verifierId = (await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`).send({ clientName: 'Acme HR' }).expect(201))
      .body.data.verifierId as string
  })

  afterAll(async () => {
    await credoHolder?.close()
    await platform?.stop()
  })

  const call = (method: 'get' | 'post' | 'put', path: string) =>
    request(platform.api.app)[method](path).set('Authorization', `Bearer ${owner.token}`)

  async function createCertificate(body: object): Promise<Certificate> {
    return ((await call('post', `/v1/x509/${orgId}`).send(body).expect(201)).body as Envelope<Certificate>).data
  }

  async function createTemplate(body: object): Promise<string> {
    const res = await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/template`).send(body).expect(201)
    return (res.body as Envelope<{ id: string }>).data.id
  }

  async function createOffer(body: object): Promise<{ id: string; offerUri: string; txCode?: string }> {
    const res = await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/create-offer`).send(body).expect(201)
    return (res.body as Envelope<{ id: string; offerUri: string; txCode?: string }>).data
  }

  async function createPresentationRequest(body: object): Promise<{ id: string; requestUri: string }> {
    const res = await call('post', `/v1/orgs/${orgId}/oid4vp/presentation`)
      .send({ verifierId, ...body })
      .expect(201)
    return (res.body as Envelope<{ id: string; requestUri: string }>).data
  }

  async function sessionOf(id: string): Promise<Session> {
    const res = await call('get', `/v1/orgs/${orgId}/oid4vp/verifier-presentation?id=${id}`).expect(200)
    const [session] = (res.body as Envelope<Session[]>).data
    return session
  }

  const settled = (id: string) =>
    waitUntil(async () => {
      const session = await sessionOf(id)
      return session.state === 'ResponseVerified' || session.state === 'Error' ? session : undefined
    })

  /** An SD-JWT VC offered with a transaction code through the API and redeemed by the non-Credo holder. */
  async function independentHolderReceives(givenName: string): Promise<HeldSdJwtVc> {
    const offer = await createOffer({
      credentials: [
        {
          templateId: employeeTemplateId,
          claims: { given_name: givenName, family_name: 'Lovelace', department: 'Engines' },
        },
      ],
      txCode: { length: 6 },
    })
    expect(offer.txCode).toMatch(/^\d{6}$/)
    return receiveSdJwtVc({ offerUri: offer.offerUri, txCode: offer.txCode, configurationId: employeeTemplateId })
  }

  /** A direct_post DCQL request made through the API, fetched and checked as the non-Credo holder does. */
  async function employeeRequest(): Promise<{ id: string; payload: RequestPayload }> {
    const created = await createPresentationRequest({ query: employeeQuery, responseMode: 'direct_post' })
    return { id: created.id, payload: await fetchVerifiedRequest(created.requestUri, verification.certificate) }
  }

  /** An mdoc offered through the API and redeemed by Credo's holder; its id in the holder's wallet. */
  async function credoHolderReceivesMdl(givenName: string): Promise<string> {
    const claims = { [NAMESPACE]: { given_name: givenName, family_name: 'Lovelace', age_over_18: true } }
    const offer = await createOffer({ credentials: [{ templateId: mdlTemplateId, claims }] })
    const wallet = credoHolder.agent.context
    const [held] = await wallet.resolve(HolderService).acceptOffer(wallet, { offerUri: offer.offerUri })
    expect(held).toMatchObject({ format: 'mso_mdoc', type: MDL, claims })
    return held.id
  }

  it('a non-Credo holder receives an SD-JWT VC with a transaction code and discloses two of its claims', async () => {
    const held = await independentHolderReceives('Ada')
    // The holder checks the credential itself: x5c chain to the organization's authority, digests, holder binding.
    const verified = await sdJwtInstance(held.holderKey.privateKey, authority.certificate).verify(held.credential)
    const holderJwk = held.holderKey.publicKey.export({ format: 'jwk' })
    expect(verified.payload).toMatchObject({
      vct: VCT,
      given_name: 'Ada',
      family_name: 'Lovelace',
      department: 'Engines',
      cnf: { jwk: { kty: 'EC', crv: 'P-256', x: holderJwk.x, y: holderJwk.y } },
    })

    const requested = await employeeRequest()
    expect(requested.payload).toMatchObject({ client_id: 'x509_san_dns:localhost', response_mode: 'direct_post' })
    const asked = askedClaims(requested.payload)
    expect(asked).toEqual({ queryId: 'employee', names: ['given_name', 'department'] })
    const presentation = await presentSdJwtVc(held, authority.certificate, asked.names, requested.payload)
    const answer = await postResponse(requested.payload, { vp_token: { [asked.queryId]: [presentation] } })
    expect(answer.status).toBe(200)

    // family_name was not asked for and stays with the holder.
    const session = await settled(requested.id)
    expect(session).toMatchObject({ state: 'ResponseVerified' })
    expect(session.disclosed).toEqual([
      {
        queryId: 'employee',
        format: 'dc+sd-jwt',
        issuerCertificateSubject: 'C=AT, O=Acme, CN=Acme document signer',
        type: VCT,
        claims: { given_name: 'Ada', department: 'Engines' },
      },
    ])
  })

  it("Credo's holder receives an mdoc signed under the organization's authority and presents the chosen elements", async () => {
    const credentialId = await credoHolderReceivesMdl('Ada')
    const created = await createPresentationRequest({ query: mdlQuery })
    const wallet = credoHolder.agent.context
    const holder = wallet.resolve(HolderService)
    const asked = await holder.resolveRequest(wallet, created.requestUri)
    // The summary says what the query asks (format, doctype, claims) and which held credential answers it.
    expect(asked.queries).toEqual([
      {
        id: 'mdl',
        format: 'mso_mdoc',
        type: 'org.iso.18013.5.1.mDL',
        claims: [{ path: [NAMESPACE, 'given_name'] }, { path: [NAMESPACE, 'age_over_18'] }],
        isRequired: true,
        candidates: [
          {
            credentialId,
            format: 'mso_mdoc',
            requestedClaims: { [NAMESPACE]: { given_name: 'Ada', age_over_18: true } },
          },
        ],
      },
    ])
    await holder.acceptRequest(wallet, { requestId: asked.requestId, selections: { mdl: { credentialId } } })

    // family_name was not asked for: the device response leaves it out.
    const session = await settled(created.id)
    expect(session).toMatchObject({ state: 'ResponseVerified' })
    expect(session.disclosed).toEqual([
      {
        queryId: 'mdl',
        format: 'mso_mdoc',
        issuerCertificateSubject: 'C=AT, O=Acme, CN=Acme document signer',
        type: MDL,
        claims: { [NAMESPACE]: { given_name: 'Ada', age_over_18: true } },
      },
    ])
    await holder.deleteCredential(wallet, credentialId)
  })

  it('refuses a replayed response, a wrong nonce and a tampered disclosure', async () => {
    const held = await independentHolderReceives('Grace')
    const names = ['given_name', 'department']

    // An honest answer to request A, kept to be sent again.
    const requestA = await employeeRequest()
    const vpTokenA = { employee: [await presentSdJwtVc(held, authority.certificate, names, requestA.payload)] }
    expect((await postResponse(requestA.payload, { vp_token: vpTokenA })).status).toBe(200)
    expect(await settled(requestA.id)).toMatchObject({ state: 'ResponseVerified' })

    // Replayed: the same response to request A again is refused; A keeps its verified result.
    const replay = await postResponse(requestA.payload, { vp_token: vpTokenA })
    expect(replay.status).toBeGreaterThanOrEqual(400)
    expect(await sessionOf(requestA.id)).toMatchObject({
      state: 'ResponseVerified',
      disclosed: [expect.objectContaining({ claims: { given_name: 'Grace', department: 'Engines' } })],
    })

    // Wrong nonce: A's presentation (key-bound to A's nonce) sent as the answer to request B.
    const requestB = await employeeRequest()
    expect((await postResponse(requestB.payload, { vp_token: vpTokenA })).status).toBe(400)
    const sessionB = await settled(requestB.id)
    expect(sessionB).toMatchObject({ state: 'Error', errorMessage: expect.stringMatching(/nonce/i) })
    expect(sessionB.disclosed).toBeUndefined()

    // Tampered: given_name's disclosure says Eve, the key binding JWT honestly signed over that presentation. The
    // same construction without the change is accepted (request D), so only the change is refused.
    const requestD = await employeeRequest()
    const untampered = presentBuiltByHand(held, names, requestD.payload)
    expect((await postResponse(requestD.payload, { vp_token: { employee: [untampered] } })).status).toBe(200)
    expect(await settled(requestD.id)).toMatchObject({
      state: 'ResponseVerified',
      disclosed: [expect.objectContaining({ claims: { given_name: 'Grace', department: 'Engines' } })],
    })
    const requestC = await employeeRequest()
    const tampered = presentBuiltByHand(held, names, requestC.payload, { name: 'given_name', value: 'Eve' })
    expect((await postResponse(requestC.payload, { vp_token: { employee: [tampered] } })).status).toBe(400)
    const sessionC = await settled(requestC.id)
    // The changed disclosure matches no digest the issuer signed: the verifier drops it, given_name is then missing.
    expect(sessionC).toMatchObject({ state: 'Error', errorMessage: expect.stringMatching(/given_name/) })
    expect(sessionC.errorMessage).not.toContain('Eve')
    expect(sessionC.disclosed).toBeUndefined()
  })

  it('refuses an mdoc whose document signer certificate has expired', async () => {
    // An Ed25519 document signer valid for a few seconds, created and activated through the API: time to issue with.
    const shortLived = await createCertificate({
      keyType: 'Ed25519',
      purpose: 'issuance',
      subject: { commonName: 'Acme short-lived signer', country: 'AT' },
      issuerCertificateId: authority.id,
      notBefore: new Date(Date.now() - 60_000).toISOString(),
      notAfter: new Date(Date.now() + 8_000).toISOString(),
    })
    await call('put', `/v1/x509/${orgId}/activate/${shortLived.id}`).expect(200)
    const credentialId = await credoHolderReceivesMdl('Grace')
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, new Date(shortLived.notAfter).getTime() - Date.now() + 1500)),
    )
    // Once expired, the certificate cannot be made active again.
    const reactivated = await call('put', `/v1/x509/${orgId}/activate/${shortLived.id}`)
    expect(reactivated.status).toBeGreaterThanOrEqual(400)
    expect(reactivated.status).toBeLessThan(500)

    const created = await createPresentationRequest({ query: mdlQuery })
    const wallet = credoHolder.agent.context
    await expect(
      wallet
        .resolve(HolderService)
        .acceptRequest(wallet, { requestUri: created.requestUri, selections: { mdl: { credentialId } } }),
    ).rejects.toThrow(/refused/)
    const session = await settled(created.id)
    expect(session).toMatchObject({
      state: 'Error',
      errorMessage: expect.stringMatching(/Certificate: 'C=AT, CN=Acme short-lived signer' used after it is allowed/),
    })
    expect(session.disclosed).toBeUndefined()
  })
})
