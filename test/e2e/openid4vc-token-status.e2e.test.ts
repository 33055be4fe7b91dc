import { X509Certificate, verify } from 'node:crypto'
import request from 'supertest'

import {
  decodeTokenStatusList,
  getTokenStatus,
  STATUS_LIST_JWT_MEDIA_TYPE,
  STATUS_LIST_JWT_TYPE,
} from '../../common/token-status-list'
import { MdocApi } from '@credo-ts/core'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { msoStatusOf } from '../../agent/src/openid4vc/verifier/mdoc-status-check'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { waitUntil } from '../helpers/agent-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'
import { type Platform, startPlatform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

// One organization agent (the real program, spawned by the API) and one in-process Credo holder for the file.
jest.setTimeout(300_000)

const VCT = 'https://acme.example/credentials/member'
const MDL = 'org.iso.18013.5.1.mDL'
const MDL_NAMESPACE = 'org.iso.18013.5.1'

interface Envelope<T> {
  statusCode: number
  message: string
  data: T
}

interface OfferStatus {
  copyIdx?: number[]
  purpose: string
  statusListId: string
  idx: number
  uri: string
}

interface StatusListToken {
  header: { typ?: string; alg?: string; x5c?: string[] }
  payload: { sub?: string; iat?: number; ttl?: number; exp?: number; status_list?: unknown }
  signingInput: string
  signature: Buffer
}

/**
 * IETF Token Status List for SD-JWT VCs and mdocs through the platform API (issue 29 item 4): an offer asking for a status puts
 * an index of the organization's list in the credential, the list is served publicly as a signed statuslist+jwt, and
 * the revoke route (by offer id) revokes, suspends and reinstates; the organization's own verifier (Credo) then
 * refuses or accepts the presentation.
 */
describe('Token Status List for SD-JWT VCs and mdocs through the platform API', () => {
  let platform: Platform
  let holder: OpenId4VcTestAgent
  let owner: TestUser
  let orgId: string
  let issuerId: string
  let templateId: string
  let verifierId: string
  let issuanceCertificate: string

  beforeAll(async () => {
    ;[platform, holder] = await Promise.all([
      startPlatform({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false', AGENT_PUBLIC_ENDPOINT_BASE: 'http://localhost' }),
      startOpenId4VcAgent(),
    ])
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Acme')

    // A country, as an mdoc's document signer must name (ISO/IEC 18013-5).
    const issuance = await createCertificate({
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Acme', country: 'AT' },
    })
    const verification = await createCertificate({
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier', country: 'AT' },
      sanDnsNames: ['localhost'],
    })
    issuanceCertificate = issuance.certificate
    const wallet = holder.agent.context
    for (const { certificate } of [issuance, verification])
      await wallet.resolve(X509CertificatesService).addTrustAnchor(wallet, { certificate })
    ;({ issuerId, templateId } = await aMemberIssuer({}))
    verifierId = (
      (await call('post', `/v1/orgs/${orgId}/oid4vp/verifier`).send({ clientName: 'Acme desk' }).expect(201)).body
        .data as { verifierId: string }
    ).verifierId
  })

  afterAll(async () => {
    await holder?.close()
    await platform?.stop()
  })

  const call = (method: 'get' | 'post', path: string, token = owner.token) =>
    request(platform.api.app)[method](path).set('Authorization', `Bearer ${token}`)

  /** An issuer with `settings` and its member-credential template (x5c-signed SD-JWT VC). */
  async function aMemberIssuer(settings: object): Promise<{ issuerId: string; templateId: string }> {
    const issuer = (
      (await call('post', `/v1/orgs/${orgId}/oid4vc/issuers`).send(settings).expect(201)).body.data as {
        issuerId: string
      }
    ).issuerId
    const template = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuer}/template`)
        .send({
          name: 'Member',
          format: 'dc+sd-jwt',
          vct: VCT,
          claims: [{ path: ['given_name'], mandatory: true }, { path: ['level'] }],
          signer: { method: 'x5c' },
        })
        .expect(201)
    ).body.data as { id: string }
    return { issuerId: issuer, templateId: template.id }
  }

  async function createCertificate(body: object): Promise<{ id: string; certificate: string }> {
    const res = await call('post', `/v1/x509/${orgId}`).send(body).expect(201)
    return (res.body as Envelope<{ id: string; certificate: string }>).data
  }

  /** How many calls of `operation` the API made to agents (its metrics). */
  async function agentCalls(operation: string): Promise<number> {
    const metrics = (await request(platform.api.app).get('/metrics').expect(200)).text
    return metrics
      .split('\n')
      .filter((line) => line.startsWith('idplane_api_agent_request_duration_seconds_count{'))
      .filter((line) => line.includes(`operation="${operation}"`))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0)
  }

  /** An offer of one member credential with a status of `purpose`, redeemed by the holder. */
  async function issueWithStatus(
    purpose: 'revocation' | 'suspension',
    givenName: string,
    template = templateId,
    { issuer = issuerId, batchSize = 1 }: { issuer?: string; batchSize?: number } = {},
  ) {
    const offer = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuer}/create-offer`)
        .send({
          credentials: [
            { templateId: template, claims: { given_name: givenName, level: 'gold' }, status: { purpose } },
          ],
        })
        .expect(201)
    ).body.data as { id: string; offerUri: string; status: OfferStatus }
    expect(offer.status).toMatchObject({
      purpose,
      uri: `${platform.baseUrl}/v1/status-lists/${offer.status.statusListId}`,
    })
    // Not redeemed yet: nothing to revoke.
    const early = await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`).send({ purpose }).expect(400)
    expect(early.body.message).toMatch(/not issued \(state OfferCreated\)/)
    const wallet = holder.agent.context
    const [held] = await wallet.resolve(HolderService).acceptOffer(wallet, { offerUri: offer.offerUri, batchSize })
    expect(held).toMatchObject({ format: 'dc+sd-jwt', type: VCT, claims: { given_name: givenName } })
    await waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/oid4vc/credential-offer/${offer.id}`).expect(200)
      return (res.body as Envelope<{ state: string }>).data.state === 'Completed' ? true : undefined
    })
    return offer
  }

  /** The holder answers a new request for a member credential with `givenName`; the session as it ends. */
  function present(givenName: string): Promise<{ state: string; errorMessage?: string }> {
    return presentFor({
      id: 'member',
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
      claims: [{ path: ['given_name'], values: [givenName] }],
    })
  }

  /** The holder answers a new request of one DCQL credential query; the session as it ends. */
  async function presentFor(credentialQuery: object): Promise<{ state: string; errorMessage?: string }> {
    const presentation = (
      await call('post', `/v1/orgs/${orgId}/oid4vp/presentation`)
        .send({ verifierId, query: { type: 'dcql', dcql: { credentials: [credentialQuery] } } })
        .expect(201)
    ).body.data as { id: string; requestUri: string }
    const wallet = holder.agent.context
    // A refused response fails the holder's answer too; the session says why.
    await wallet
      .resolve(HolderService)
      .acceptRequest(wallet, { requestUri: presentation.requestUri })
      .catch(() => undefined)
    return waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/oid4vp/verifier-presentation?id=${presentation.id}`).expect(200)
      const [session] = (res.body as Envelope<{ state: string; errorMessage?: string }[]>).data
      return session?.state === 'ResponseVerified' || session?.state === 'Error' ? session : undefined
    })
  }

  /** The served token, fetched over HTTP without a token, its signature checked with its x5c leaf. */
  async function servedToken(uri: string): Promise<StatusListToken> {
    const res = await fetch(uri)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(STATUS_LIST_JWT_MEDIA_TYPE)
    const jwt = await res.text()
    const [header, payload, signature] = jwt.split('.')
    const token: StatusListToken = {
      header: JSON.parse(Buffer.from(header, 'base64url').toString()) as StatusListToken['header'],
      payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as StatusListToken['payload'],
      signingInput: `${header}.${payload}`,
      signature: Buffer.from(signature, 'base64url'),
    }
    expect(token.header).toMatchObject({ typ: STATUS_LIST_JWT_TYPE, alg: 'ES256' })
    const [leaf] = token.header.x5c ?? []
    // Signed by the organization's issuance certificate, the key of the credentials.
    expect(issuanceCertificate.replace(/-----[A-Z ]+-----|\s/g, '')).toBe(leaf)
    const key = new X509Certificate(Buffer.from(leaf, 'base64')).publicKey
    expect(verify('sha256', Buffer.from(token.signingInput), { key, dsaEncoding: 'ieee-p1363' }, token.signature)).toBe(
      true,
    )
    expect(token.payload).toMatchObject({ sub: uri, ttl: 60, iat: expect.any(Number) })
    expect(token.payload).not.toHaveProperty('exp')
    return token
  }

  function statusAt(token: StatusListToken, idx: number): number {
    const { bits, bytes } = decodeTokenStatusList(token.payload.status_list)
    return getTokenStatus(bytes, bits, idx)
  }

  it('verifies a credential until it is revoked, then refuses it naming the status', async () => {
    const offer = await issueWithStatus('revocation', 'Ada')
    const before = await servedToken(offer.status.uri)
    expect(decodeTokenStatusList(before.payload.status_list).bits).toBe(1)
    expect(statusAt(before, offer.status.idx)).toBe(0)
    expect(await present('Ada')).toMatchObject({ state: 'ResponseVerified' })

    // The issuance record takes the session's states from the agent's events: once it says Completed, the revoke
    // route asks the agent nothing.
    await waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/credentials/${offer.id}`).expect(200)
      return (res.body as Envelope<{ state: string }>).data.state === 'Completed' ? true : undefined
    })
    const offerReadsBefore = await agentCalls('getCredentialOffer')
    const revoked = await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`).send({}).expect(201)
    expect(await agentCalls('getCredentialOffer')).toBe(offerReadsBefore)
    expect(revoked.body.message).toBe('Credential revoked')
    expect(revoked.body.data).toMatchObject({
      id: offer.id,
      credentialType: 'SD_JWT',
      state: 'Completed',
      revoked: true,
      revocationStatus: 'revoked',
      statusListId: offer.status.statusListId,
      statusListIndex: offer.status.idx,
      statusPurpose: 'revocation',
    })
    expect(statusAt(await servedToken(offer.status.uri), offer.status.idx)).toBe(1)
    const refused = await present('Ada')
    expect(refused.state).toBe('Error')
    expect(refused.errorMessage).toMatch(/Status is not valid/)
    await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`).send({}).expect(409)
    await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`)
      .send({ purpose: 'revocation', reinstate: true })
      .expect(400)
  })

  it('suspends (status 2 in a 2-bit list) and reinstates a credential issued with a suspension status', async () => {
    const offer = await issueWithStatus('suspension', 'Grace')
    expect(await present('Grace')).toMatchObject({ state: 'ResponseVerified' })

    // Recorded, not yet published: the served list still says VALID until revocations/publish.
    const recorded = await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`)
      .send({ purpose: 'suspension', publish: false })
      .expect(201)
    expect(recorded.body.data).toMatchObject({ suspended: false, suspensionStatus: 'pending' })
    expect(statusAt(await servedToken(offer.status.uri), offer.status.idx)).toBe(0)
    const published = await call('post', `/v1/orgs/${orgId}/revocations/publish`).expect(201)
    expect(published.body.data).toContainEqual(
      expect.objectContaining({ statusListCredential: offer.status.uri, credentialRecordIds: [offer.id] }),
    )
    const suspended = await servedToken(offer.status.uri)
    expect(decodeTokenStatusList(suspended.payload.status_list).bits).toBe(2)
    expect(statusAt(suspended, offer.status.idx)).toBe(2)
    const refused = await present('Grace')
    expect(refused.state).toBe('Error')
    expect(refused.errorMessage).toMatch(/Status is not valid/)

    const reinstated = await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`)
      .send({ purpose: 'suspension', reinstate: true })
      .expect(201)
    expect(reinstated.body.data).toMatchObject({ suspended: false, suspensionStatus: null })
    expect(statusAt(await servedToken(offer.status.uri), offer.status.idx)).toBe(0)
    expect(await present('Grace')).toMatchObject({ state: 'ResponseVerified' })
  })

  it('signs the list of a DID-signed template with that DID, which the verifier checks', async () => {
    const [{ did }] = (await call('get', `/v1/orgs/${orgId}/dids`).expect(200)).body.data as { did: string }[]
    const didTemplate = (
      (
        await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/template`)
          .send({
            name: 'Member (DID)',
            format: 'dc+sd-jwt',
            vct: VCT,
            claims: [{ path: ['given_name'], mandatory: true }, { path: ['level'] }],
            signer: { method: 'did', did },
          })
          .expect(201)
      ).body.data as { id: string }
    ).id
    const offer = await issueWithStatus('revocation', 'Hedy', didTemplate)
    const res = await fetch(offer.status.uri)
    expect(res.headers.get('content-type')).toBe(STATUS_LIST_JWT_MEDIA_TYPE)
    const header = JSON.parse(Buffer.from((await res.text()).split('.')[0], 'base64url').toString()) as {
      typ: string
      kid: string
      x5c?: unknown
    }
    expect(header).toMatchObject({ typ: STATUS_LIST_JWT_TYPE, kid: expect.stringMatching(new RegExp(`^${did}#`)) })
    expect(header).not.toHaveProperty('x5c')
    // Verified means Credo checked the token with the credential's key, the DID's.
    expect(await present('Hedy')).toMatchObject({ state: 'ResponseVerified' })
    await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`).send({}).expect(201)
    expect(await present('Hedy')).toMatchObject({
      state: 'Error',
      errorMessage: expect.stringMatching(/Status is not valid/),
    })
  })

  it('gives each copy of a batch its own entry, and a revocation covers every copy', async () => {
    const { issuerId: batchIssuer, templateId: batchTemplate } = await aMemberIssuer({ batchSize: 2 })
    const offer = await issueWithStatus('revocation', 'Grace', batchTemplate, { issuer: batchIssuer, batchSize: 2 })
    const copyIdx = offer.status.copyIdx ?? []
    expect(copyIdx).toHaveLength(1)
    expect(copyIdx[0]).not.toBe(offer.status.idx)

    // The wallet's two copies (one SD-JWT VC per key) carry the two entries.
    const records = await holder.agent.sdJwtVc.getAll()
    const entriesOf = (compact: string) =>
      (
        JSON.parse(Buffer.from(compact.split('~')[0].split('.')[1], 'base64url').toString()) as {
          status?: { status_list: { idx: number; uri: string } }
        }
      ).status?.status_list
    const copies = records
      .flatMap((record) => record.credentialInstances.map((instance) => entriesOf(instance.compactSdJwtVc)))
      .filter((entry) => entry?.uri === offer.status.uri && [offer.status.idx, ...copyIdx].includes(entry.idx))
    expect(copies.map((entry) => entry?.idx).sort((a = 0, b = 0) => a - b)).toEqual(
      [offer.status.idx, ...copyIdx].sort((a, b) => a - b),
    )

    const revoked = await call('post', `/v1/orgs/${orgId}/credentials/${offer.id}/revoke`).send({}).expect(201)
    expect(revoked.body.data).toMatchObject({
      statusListIndex: offer.status.idx,
      statusListCopyIndices: copyIdx,
      revocationStatus: 'revoked',
    })
    const served = await servedToken(offer.status.uri)
    expect([statusAt(served, offer.status.idx), statusAt(served, copyIdx[0])]).toEqual([1, 1])
  })

  it('puts the status into an mdoc (its MSO): verified until revoked, then refused; suspension likewise', async () => {
    const mdocTemplate = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/template`)
        .send({
          name: 'Licence',
          format: 'mso_mdoc',
          doctype: MDL,
          claims: [{ path: [MDL_NAMESPACE, 'given_name'], mandatory: true }],
          signer: { method: 'x5c' },
        })
        .expect(201)
    ).body.data as { id: string }
    const presentMdoc = (givenName: string) =>
      presentFor({
        id: 'licence',
        format: 'mso_mdoc',
        meta: { doctype_value: MDL },
        claims: [{ path: [MDL_NAMESPACE, 'given_name'], values: [givenName] }],
      })
    const issueMdoc = async (givenName: string, purpose: 'revocation' | 'suspension') => {
      const offer = (
        await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/create-offer`)
          .send({
            credentials: [
              {
                templateId: mdocTemplate.id,
                claims: { [MDL_NAMESPACE]: { given_name: givenName } },
                status: { purpose },
              },
            ],
          })
          .expect(201)
      ).body.data as { id: string; offerUri: string; status: OfferStatus }
      const wallet = holder.agent.context
      const [held] = await wallet.resolve(HolderService).acceptOffer(wallet, { offerUri: offer.offerUri })
      expect(held).toMatchObject({
        format: 'mso_mdoc',
        type: MDL,
        claims: { [MDL_NAMESPACE]: { given_name: givenName } },
      })
      // The entry is in the MSO the issuer signed, as the holder received it.
      const record = await wallet.resolve(MdocApi).getById(held.id)
      expect(msoStatusOf(record.firstCredential)).toEqual({ idx: offer.status.idx, uri: offer.status.uri })
      return offer
    }

    const revocable = await issueMdoc('Marie', 'revocation')
    expect(await presentMdoc('Marie')).toMatchObject({ state: 'ResponseVerified' })
    const revoked = await call('post', `/v1/orgs/${orgId}/credentials/${revocable.id}/revoke`).send({}).expect(201)
    expect(revoked.body.data).toMatchObject({ id: revocable.id, credentialType: 'MDOC', revocationStatus: 'revoked' })
    expect(statusAt(await servedToken(revocable.status.uri), revocable.status.idx)).toBe(1)
    expect(await presentMdoc('Marie')).toMatchObject({
      state: 'Error',
      errorMessage: expect.stringMatching(/Status is not valid: the mdoc is revoked/),
    })

    const suspendable = await issueMdoc('Irene', 'suspension')
    await call('post', `/v1/orgs/${orgId}/credentials/${suspendable.id}/revoke`)
      .send({ purpose: 'suspension' })
      .expect(201)
    expect(await presentMdoc('Irene')).toMatchObject({
      state: 'Error',
      errorMessage: expect.stringMatching(/Status is not valid: the mdoc is suspended/),
    })
    await call('post', `/v1/orgs/${orgId}/credentials/${suspendable.id}/revoke`)
      .send({ purpose: 'suspension', reinstate: true })
      .expect(201)
    expect(await presentMdoc('Irene')).toMatchObject({ state: 'ResponseVerified' })
  })

  it('refuses a status on a W3C JWT template and on an offer of two credentials', async () => {
    const [{ did }] = (await call('get', `/v1/orgs/${orgId}/dids`).expect(200)).body.data as { did: string }[]
    const jwtTemplate = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/template`)
        .send({
          name: 'Member (W3C)',
          format: 'jwt_vc_json',
          types: ['VerifiableCredential', 'MemberCredential'],
          claims: [{ path: ['given_name'], mandatory: true }],
          signer: { method: 'did', did },
        })
        .expect(201)
    ).body.data as { id: string }
    const refused = await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/create-offer`)
      .send({
        credentials: [{ templateId: jwtTemplate.id, claims: { given_name: 'Ada' }, status: { purpose: 'revocation' } }],
      })
      .expect(400)
    expect(JSON.stringify(refused.body)).toMatch(/not jwt_vc_json/)
    await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/create-offer`)
      .send({
        credentials: [
          { templateId, claims: { given_name: 'Ada' }, status: { purpose: 'revocation' } },
          { templateId: jwtTemplate.id, claims: { given_name: 'Ada' } },
        ],
      })
      .expect(400)
  })
  // Last: it rotates the organization's issuance certificate.
  it('keeps each list with its issuance certificate across a rotation: old credentials still verify, new ones get a new list', async () => {
    const kept = await issueWithStatus('revocation', 'Rosa')
    const revokedLater = await issueWithStatus('revocation', 'Lise')
    expect(revokedLater.status.statusListId).toBe(kept.status.statusListId)
    const unredeemed = (
      await call('post', `/v1/orgs/${orgId}/oid4vc/${issuerId}/create-offer`)
        .send({ credentials: [{ templateId, claims: { given_name: 'Wanda' }, status: { purpose: 'revocation' } }] })
        .expect(201)
    ).body.data as { offerUri: string }

    const next = await createCertificate({
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Acme 2027' },
    })
    await request(platform.api.app)
      .put(`/v1/x509/${orgId}/activate/${next.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    const wallet = holder.agent.context
    await wallet.resolve(X509CertificatesService).addTrustAnchor(wallet, { certificate: next.certificate })

    // The list changes after the rotation and is signed again, by its own certificate: the other credential of it
    // still verifies, the revoked one does not.
    await call('post', `/v1/orgs/${orgId}/credentials/${revokedLater.id}/revoke`).send({}).expect(201)
    expect(await present('Rosa')).toMatchObject({ state: 'ResponseVerified' })
    expect(await present('Lise')).toMatchObject({
      state: 'Error',
      errorMessage: expect.stringMatching(/Status is not valid/),
    })

    // New offers go to a list of the new certificate.
    const fresh = await issueWithStatus('revocation', 'Vera')
    expect(fresh.status.statusListId).not.toBe(kept.status.statusListId)
    expect(await present('Vera')).toMatchObject({ state: 'ResponseVerified' })

    // An offer made before the rotation is not signed with a certificate its list does not belong to.
    // It gets its token (the offer is valid); the credential request is what the issuer refuses.
    await expect(wallet.resolve(HolderService).acceptOffer(wallet, { offerUri: unredeemed.offerUri })).rejects.toThrow(
      /credentials could not be received/,
    )
  })
})
