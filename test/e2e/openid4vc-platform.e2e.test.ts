import { EntityManager } from '@mikro-orm/postgresql'
import request from 'supertest'

import type { OrgRoleName } from '../../api/src/modules/memberships/org-role.entity'
import { MembershipsRepository } from '../../api/src/modules/memberships/memberships.repository'
import { MembershipsService } from '../../api/src/modules/memberships/memberships.service'
import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { waitUntil } from '../helpers/agent-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'
import { type Platform, startPlatform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { FAST_WEBHOOK_ENV } from '../helpers/webhook-fixtures'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

// One organization agent (the real program, spawned by the API) and one in-process Credo holder for the file.
jest.setTimeout(240_000)

const VCT = 'https://acme.example/credentials/employee'

/** A platform event as the organization's webhook receives it. */
interface DeliveredEvent {
  id: string
  type: string
  orgId: string
  occurredAt: string
  record: { id: string; state: string; updatedAt: string } & Record<string, unknown>
}

/** Credo's issuance session states in order (the two of a batch step share a place). */
const ISSUANCE_STATES = [
  'OfferCreated',
  'OfferUriRetrieved',
  'AuthorizationInitiated',
  'AuthorizationGranted',
  'AccessTokenRequested',
  'AccessTokenCreated',
  'CredentialRequestReceived',
  'CredentialsPartiallyIssued',
  'Completed',
]

/** Whether `states` are distinct known states that only go forward in `order`. */
function isInOrder(states: string[], order: string[]): boolean {
  const places = states.map((state) => order.indexOf(state))
  return places.every((place, index) => place >= 0 && (index === 0 || place > places[index - 1]))
}

interface Envelope<T> {
  statusCode: number
  message: string
  data: T
}

/**
 * OpenID4VC through the platform API (issue 29) with HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false: x509 certificates,
 * an OID4VCI issuer with an SD-JWT VC template and an offer with a transaction code that Credo's holder redeems, then
 * an OID4VP verifier whose DCQL request the holder answers disclosing only what was asked. The organization's webhook
 * receives both sessions' state events (oid4vc-issuance, oid4vp-verification) through the record kit.
 */
describe('OpenID4VC through the platform API with a real organization agent', () => {
  let platform: Platform
  let holder: OpenId4VcTestAgent
  let owner: TestUser
  let orgId: string
  let receiver: WebhookReceiver
  const hookPath = '/acme'

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    // Verification certificates name the verifier's host (x509_san_dns): the agent's endpoint says localhost.
    ;[platform, holder] = await Promise.all([
      startPlatform({
        ...FAST_WEBHOOK_ENV,
        HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false',
        AGENT_PUBLIC_ENDPOINT_BASE: 'http://localhost',
      }),
      startOpenId4VcAgent(),
    ])
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await call('post', `/v1/webhooks/orgs/${orgId}/register`)
      .send({ webhookUrl: `${receiver.url}${hookPath}` })
      .expect(201)
    await platform.spinUp(orgId, owner.token, 'Acme')
  })

  afterAll(async () => {
    await holder?.close()
    await platform?.stop()
    await receiver?.stop()
  })

  /** The events of one record the organization's webhook accepted, in arrival order. */
  const delivered = (type: string, id: string): DeliveredEvent[] =>
    receiver
      .accepted(hookPath)
      .map((delivery) => delivery.body?.data as unknown as DeliveredEvent)
      .filter((event) => event.type === type && event.record.id === id)

  /**
   * A session's events as the documented receiver reads them (docs/decisions.md, Webhooks: at least once, order best
   * effort): once each by event id, in the order of their record's version time, then of the event's time. Arrival
   * order is not the publication order: deliveries of one owner go out up to WEBHOOK_OWNER_CONCURRENCY at a time, and
   * a batch's deliveries share their due time. Two states with the same times keep `order`, the ordering rule's.
   */
  const announced = (type: string, id: string, order: string[]): DeliveredEvent[] => {
    const once = new Map(delivered(type, id).map((event) => [event.id, event]))
    return [...once.values()].sort(
      (a, b) =>
        Date.parse(a.record.updatedAt) - Date.parse(b.record.updatedAt) ||
        Date.parse(a.occurredAt) - Date.parse(b.occurredAt) ||
        order.indexOf(a.record.state) - order.indexOf(b.record.state),
    )
  }

  const call = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, token = owner.token) =>
    request(platform.api.app)[method](path).set('Authorization', `Bearer ${token}`)

  async function createCertificate(body: object): Promise<{ id: string; certificate: string; status: string }> {
    const res = await call('post', `/v1/x509/${orgId}`).send(body).expect(201)
    return (res.body as Envelope<{ id: string; certificate: string; status: string }>).data
  }

  it('issues an SD-JWT VC with a transaction code and verifies a selectively disclosed presentation', async () => {
    const issuance = await createCertificate({ keyType: 'P-256', purpose: 'issuance', subject: { commonName: 'Acme' } })
    const verification = await createCertificate({
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier', country: 'AT' },
      sanDnsNames: ['localhost'],
    })
    expect(issuance.status).toBe('active')
    const listed = await call('get', `/v1/x509/${orgId}?purpose=issuance`).expect(200)
    expect((listed.body as Envelope<{ id: string }[]>).data.map((c) => c.id)).toEqual([issuance.id])
    expect((await call('get', `/v1/x509/${orgId}/${verification.id}`).expect(200)).body.data).toMatchObject({
      purpose: 'verification',
      sanDnsNames: ['localhost'],
    })
    // The holder trusts the organization's certificates (the SD-JWT VC's x5c and the signed request).
    const wallet = holder.agent.context
    for (const { certificate } of [issuance, verification]) {
      await wallet.resolve(X509CertificatesService).addTrustAnchor(wallet, { certificate })
    }

    const issuer = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/issuers`)
        .send({ display: [{ name: 'Acme' }] })
        .expect(201)
    ).body.data as { issuerId: string; credentialIssuer: string }
    expect(issuer.credentialIssuer).toMatch(/^http:\/\/localhost:\d+\/oid4vci\//)
    const template = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuer.issuerId}/template`)
        .send({
          name: 'Employee',
          format: 'dc+sd-jwt',
          vct: VCT,
          claims: [
            { path: ['given_name'], mandatory: true },
            { path: ['family_name'], mandatory: true },
            { path: ['department'] },
            { path: ['employee_number'], selectivelyDisclosable: false },
          ],
          signer: { method: 'x5c' },
        })
        .expect(201)
    ).body.data as { id: string }
    const metadata = await fetch(
      `${issuer.credentialIssuer.replace(/\/oid4vci\/.*$/, '')}/.well-known/openid-credential-issuer/oid4vci/${issuer.issuerId}`,
    )
    expect(
      ((await metadata.json()) as { credential_configurations_supported: object }).credential_configurations_supported,
    ).toHaveProperty(template.id)

    // A claim the template requires is missing: the agent's field error reaches the caller as a 400.
    const incomplete = await call('post', `/v1/orgs/${orgId}/oid4vc/${issuer.issuerId}/create-offer`)
      .send({ credentials: [{ templateId: template.id, claims: { given_name: 'Ada' } }] })
      .expect(400)
    expect(JSON.stringify(incomplete.body.errors)).toMatch(/family_name/)
    const offer = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuer.issuerId}/create-offer`)
        .send({
          credentials: [
            {
              templateId: template.id,
              claims: { given_name: 'Ada', family_name: 'Lovelace', department: 'Engines', employee_number: 42 },
            },
          ],
          txCode: { length: 6, description: 'Sent by mail' },
        })
        .expect(201)
    ).body.data as { id: string; offerUri: string; txCode: string; state: string; hasTxCode: boolean }
    expect(offer).toMatchObject({ state: 'OfferCreated', hasTxCode: true, txCode: expect.stringMatching(/^\d{6}$/) })

    // The pre-authorized code, read from the offer as a wallet would, to look for it in the events below.
    const offerUri = new URL(offer.offerUri.replace('openid-credential-offer://', 'http://offer/'))
    const credentialOffer = (await (await fetch(offerUri.searchParams.get('credential_offer_uri') ?? '')).json()) as {
      grants: Record<string, { 'pre-authorized_code'?: string }>
    }
    const preAuthorizedCode =
      credentialOffer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code']
    expect(preAuthorizedCode).toEqual(expect.any(String))

    const holderService = wallet.resolve(HolderService)
    const [held] = await holderService.acceptOffer(wallet, { offerUri: offer.offerUri, txCode: offer.txCode })
    expect(held).toMatchObject({
      format: 'dc+sd-jwt',
      type: VCT,
      claims: { given_name: 'Ada', family_name: 'Lovelace' },
    })
    const completed = await waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/oid4vc/credential-offer/${offer.id}`).expect(200)
      const data = (res.body as Envelope<{ state: string; issuedCredentials: string[] }>).data
      return data.state === 'Completed' ? data : undefined
    })
    expect(completed.issuedCredentials).toEqual([template.id])
    // The transaction code is shown once, at creation.
    expect(completed).not.toHaveProperty('txCode')
    const offers = await call('get', `/v1/orgs/${orgId}/oid4vc/credential-offer?issuerId=${issuer.issuerId}`).expect(
      200,
    )
    expect((offers.body as Envelope<{ id: string }[]>).data.map((o) => o.id)).toEqual([offer.id])

    const verifier = (
      await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`).send({ clientName: 'Acme HR' }).expect(201)
    ).body.data as { verifierId: string }
    const presentation = (
      await call('post', `/v1/orgs/${orgId}/oid4vp/presentation`)
        .send({
          verifierId: verifier.verifierId,
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
        .expect(201)
    ).body.data as { id: string; requestUri: string; state: string }
    expect(presentation.requestUri).toMatch(/^openid4vp:\/\/\?client_id=x509_san_dns%3Alocalhost/)

    await holderService.acceptRequest(wallet, { requestUri: presentation.requestUri })
    const verified = await waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/oid4vp/verifier-presentation?id=${presentation.id}`).expect(200)
      const [session] = (res.body as Envelope<{ state: string; disclosed?: unknown[] }[]>).data
      return session?.state === 'ResponseVerified' ? session : undefined
    })
    // family_name was not asked for and stays with the holder; employee_number is always disclosed. Signed by
    // x5c, the credential names its issuer by certificate only.
    expect(verified.disclosed).toEqual([
      {
        queryId: 'employee',
        format: 'dc+sd-jwt',
        issuerCertificateSubject: expect.stringContaining('Acme'),
        type: VCT,
        claims: { given_name: 'Ada', department: 'Engines', employee_number: 42 },
      },
    ])
    const sessions = await call(
      'get',
      `/v1/orgs/${orgId}/oid4vp/verifier-presentation?verifierId=${verifier.verifierId}`,
    )
    expect((sessions.body as Envelope<{ id: string; state: string }[]>).data).toEqual([
      expect.objectContaining({ id: presentation.id, state: 'ResponseVerified' }),
    ])

    // The webhook: each session's states in Credo's order through to the end, once each, as the reads show them.
    await receiver.waitFor(
      () =>
        delivered('oid4vc-issuance.state-changed', offer.id).some((event) => event.record.state === 'Completed') &&
        delivered('oid4vp-verification.state-changed', presentation.id).some(
          (event) => event.record.state === 'ResponseVerified',
        ),
      60_000,
      'the sessions final state events',
    )
    const issuanceEvents = announced('oid4vc-issuance.state-changed', offer.id, ISSUANCE_STATES)
    const issuanceStates = issuanceEvents.map((event) => event.record.state)
    // A state the agent reports late is not announced any more; what is announced goes forward in Credo's order.
    expect(issuanceStates[0]).toBe('OfferCreated')
    expect(issuanceStates.at(-1)).toBe('Completed')
    expect(isInOrder(issuanceStates, ISSUANCE_STATES)).toBe(true)
    expect(issuanceEvents.at(-1)).toEqual({
      id: expect.any(String),
      type: 'oid4vc-issuance.state-changed',
      orgId,
      occurredAt: expect.any(String),
      record: expect.objectContaining({
        id: offer.id,
        issuerId: issuer.issuerId,
        state: 'Completed',
        credentialConfigurationIds: [template.id],
        issuedCredentials: [template.id],
        isPreAuthorized: true,
        hasTxCode: true,
      }),
    })
    const verificationOrder = ['RequestCreated', 'RequestUriRetrieved', 'ResponseVerified']
    const verificationEvents = announced('oid4vp-verification.state-changed', presentation.id, verificationOrder)
    const verificationStates = verificationEvents.map((event) => event.record.state)
    expect(verificationStates[0]).toBe('RequestCreated')
    expect(verificationStates.at(-1)).toBe('ResponseVerified')
    expect(isInOrder(verificationStates, verificationOrder)).toBe(true)
    expect(verificationEvents.at(-1)?.record).toEqual(
      expect.objectContaining({ verifierId: verifier.verifierId, disclosed: verified.disclosed }),
    )
    for (const { rawBody } of receiver.accepted(hookPath)) {
      expect(rawBody).not.toContain(offer.txCode)
      expect(rawBody).not.toContain(preAuthorizedCode)
    }
    // Each announced state is counted once, as for the DIDComm exchanges.
    const metrics = (await request(platform.api.app).get('/metrics').expect(200)).text
    const counted = (name: string, state: string) =>
      Number(new RegExp(`^${name}\\{state="${state}"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? 0)
    for (const state of new Set(issuanceStates)) {
      expect(counted('idplane_api_oid4vc_issuance_state_changes_total', state)).toBeGreaterThanOrEqual(1)
    }
    expect(counted('idplane_api_oid4vc_issuance_state_changes_total', 'Completed')).toBe(1)
    expect(counted('idplane_api_oid4vp_verification_state_changes_total', 'ResponseVerified')).toBe(1)
  })

  it("keeps the organization verifier's trust anchors (item 6): add, list, refuse a duplicate, remove", async () => {
    const { certificate } = await createCertificate({
      keyType: 'Ed25519',
      purpose: 'authority',
      subject: { commonName: 'Partner issuer' },
    })
    const added = (
      await call('post', `/v1/x509/${orgId}/trust-anchors`).send({ certificate, label: 'Partner' }).expect(201)
    ).body as Envelope<{ id: string; subject: string; label?: string }>
    expect(added.data).toMatchObject({ subject: expect.stringContaining('Partner issuer'), label: 'Partner' })
    const listed = (await call('get', `/v1/x509/${orgId}/trust-anchors`).expect(200)).body as Envelope<{ id: string }[]>
    expect(listed.data.map((anchor) => anchor.id)).toContain(added.data.id)
    await call('post', `/v1/x509/${orgId}/trust-anchors`).send({ certificate }).expect(409)
    await call('post', `/v1/x509/${orgId}/trust-anchors`).send({ certificate: 'not a certificate' }).expect(400)
    await call('delete', `/v1/x509/${orgId}/trust-anchors/${added.data.id}`).expect(200)
    const after = (await call('get', `/v1/x509/${orgId}/trust-anchors`).expect(200)).body as Envelope<{ id: string }[]>
    expect(after.data.map((anchor) => anchor.id)).not.toContain(added.data.id)
    await call('delete', `/v1/x509/${orgId}/trust-anchors/${added.data.id}`).expect(404)
  })

  it('manages templates, verifiers and verification templates, and refuses roles outside issuance or verification', async () => {
    const issuer = (await call('post', `/v1/orgs/${orgId}/oid4vc/issuers`).send({}).expect(201)).body.data as {
      issuerId: string
    }
    const base = `/v1/orgs/${orgId}/oid4vc/${issuer.issuerId}/template`
    const template = (
      await call('post', base)
        .send({
          name: 'Badge',
          format: 'dc+sd-jwt',
          vct: VCT,
          claims: [{ path: ['level'] }],
          signer: { method: 'x5c' },
        })
        .expect(201)
    ).body.data as { id: string }
    const patched = await call('patch', `${base}/${template.id}`).send({ name: 'Gold badge' }).expect(200)
    expect(patched.body.data).toMatchObject({ id: template.id, name: 'Gold badge', vct: VCT })
    expect((await call('get', base).expect(200)).body.data).toHaveLength(1)
    await call('delete', `${base}/${template.id}`).expect(200)
    await call('get', `${base}/${template.id}`).expect(404)
    await call('post', `/v1/orgs/${orgId}/oid4vc/issuers/${issuer.issuerId}`).send({ batchSize: 3 }).expect(200)
    expect(
      (await call('get', `/v1/orgs/${orgId}/oid4vc/issuers/${issuer.issuerId}`).expect(200)).body.data,
    ).toMatchObject({
      batchSize: 3,
    })
    await call('delete', `/v1/orgs/${orgId}/oid4vc/issuers/${issuer.issuerId}`).expect(200)
    await call('get', `/v1/orgs/${orgId}/oid4vc/issuers/${issuer.issuerId}`).expect(404)

    const verifier = (
      await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`).send({ verifierId: 'front-desk' }).expect(201)
    ).body.data as { verifierId: string }
    await call('put', `/v1/orgs/${orgId}/oid4vp/verifier/front-desk`).send({ clientName: 'Front desk' }).expect(200)
    expect(
      (await call('get', `/v1/orgs/${orgId}/oid4vp/verifier?verifierId=front-desk`).expect(200)).body.data,
    ).toEqual([expect.objectContaining({ verifierId: 'front-desk', clientName: 'Front desk' })])
    await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`).send({ verifierId: 'front-desk' }).expect(409)
    const query = {
      type: 'dcql',
      dcql: { credentials: [{ id: 'b', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } }] },
    }
    const saved = (
      await call('post', `/v1/orgs/${orgId}/oid4vp/verification-template`)
        .send({ name: 'Badge check', query })
        .expect(201)
    ).body.data as { id: string }
    await call('put', `/v1/orgs/${orgId}/oid4vp/verification-template/${saved.id}`)
      .send({ name: 'Badge check', query, responseMode: 'direct_post' })
      .expect(200)
    const fromTemplate = await call('post', `/v1/orgs/${orgId}/oid4vp/presentation`)
      .send({ verifierId: verifier.verifierId, templateId: saved.id })
      .expect(201)
    expect(fromTemplate.body.data.requestUri).toMatch(/^openid4vp:/)
    await call('post', `/v1/orgs/${orgId}/oid4vp/verification-template`)
      .send({ name: 'Broken', query: { type: 'dcql', dcql: { credentials: 'none' } } })
      .expect(400)
    await call('delete', `/v1/orgs/${orgId}/oid4vp/verification-template/${saved.id}`).expect(200)
    await call('delete', `/v1/orgs/${orgId}/oid4vp/verifier?verifierId=front-desk`).expect(200)

    // Roles: a verifier cannot issue, an issuer cannot verify, a member manages no certificate.
    const verifierUser = await aUserWithToken(platform.api)
    const issuerUser = await aUserWithToken(platform.api)
    const memberUser = await aUserWithToken(platform.api)
    await grant(verifierUser, 'verifier')
    await grant(issuerUser, 'issuer')
    await grant(memberUser, 'member')
    await call('post', `/v1/orgs/${orgId}/oid4vc/issuers`, verifierUser.token).send({}).expect(403)
    await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`, issuerUser.token).send({}).expect(403)
    await call('post', `/v1/x509/${orgId}`, memberUser.token)
      .send({ keyType: 'P-256', purpose: 'issuance', subject: { commonName: 'x' } })
      .expect(403)
    await call('get', `/v1/orgs/${orgId}/oid4vc/issuers`, verifierUser.token).expect(200)
    await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`, verifierUser.token).send({}).expect(201)
  })

  /** Gives a new user of the platform a role in the organization. */
  async function grant(user: TestUser, role: OrgRoleName): Promise<void> {
    const memberships = new MembershipsRepository(platform.api.runtime.container.get(EntityManager).fork())
    await new MembershipsService(memberships).grant(orgId, user.id, [await memberships.definitionByName(role)])
  }
})
