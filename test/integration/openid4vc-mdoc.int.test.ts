import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

import { MdocApi } from '@credo-ts/core'
import { OpenId4VcVerificationSessionState } from '@credo-ts/openid4vc'
import { InvalidStateError } from '@idplane/common'
import type { StatusListSignerJson } from '@idplane/common/agent-contract/openid4vc-api'
import {
  emptyTokenStatusList,
  setTokenStatus,
  STATUS_LIST_JWT_MEDIA_TYPE,
  statusListTokenPayload,
  TOKEN_STATUS,
} from '@idplane/common/token-status-list'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { signStatusListToken } from '../../agent/src/openid4vc/issuer/status-list-token'
import { msoStatusOf } from '../../agent/src/openid4vc/verifier/mdoc-status-check'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { waitUntil } from '../helpers/agent-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

const MDL = 'org.iso.18013.5.1.mDL'
const NAMESPACE = 'org.iso.18013.5.1'

const mdlQuery = {
  credentials: [
    {
      id: 'mdl',
      format: 'mso_mdoc',
      meta: { doctype_value: MDL },
      claims: [{ path: [NAMESPACE, 'given_name'] }, { path: [NAMESPACE, 'age_over_18'] }],
    },
  ],
}

describe('OpenID4VC with ISO mdoc signed under the organization x509 certificates (two agents, HTTP)', () => {
  let organization: OpenId4VcTestAgent
  let wallet: OpenId4VcTestAgent
  let issuerId: string
  let templateId: string
  let verifierId: string

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    wallet = await startOpenId4VcAgent()
    const org = organization.agent.context
    const certificates = org.resolve(X509CertificatesService)
    const authority = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'authority',
      subject: { commonName: 'Acme IACA', organization: 'Acme', country: 'AT' },
    })
    await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Acme document signer', organization: 'Acme', country: 'AT' },
      issuerCertificateId: authority.id,
    })
    const verification = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier' },
      sanDnsNames: ['localhost'],
    })
    // The wallet trusts the organization's authority (mdoc issuer chain) and its verifier's certificate.
    const holder = wallet.agent.context
    await holder
      .resolve(X509CertificatesService)
      .addTrustAnchor(holder, { certificate: authority.certificate, label: 'Acme IACA' })
    await holder.resolve(X509CertificatesService).addTrustAnchor(holder, { certificate: verification.certificate })

    const issuer = await org.resolve(IssuersService).create(org, { display: [{ name: 'Acme roads' }] })
    issuerId = issuer.issuerId
    const template = await org.resolve(CredentialTemplatesService).create(org, issuerId, {
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
    templateId = template.id
    verifierId = (await org.resolve(VerifiersService).create(org, { clientName: 'Acme car rental' })).verifierId
  })

  afterAll(async () => {
    await wallet?.close()
    await organization?.close()
  })

  async function issueMdl(givenName: string): Promise<string> {
    const org = organization.agent.context
    const offer = await org.resolve(CredentialOffersService).create(org, issuerId, {
      credentials: [
        { templateId, claims: { [NAMESPACE]: { given_name: givenName, family_name: 'Lovelace', age_over_18: true } } },
      ],
    })
    const holder = wallet.agent.context
    const [held] = await holder.resolve(HolderService).acceptOffer(holder, { offerUri: offer.offerUri })
    expect(held).toMatchObject({
      format: 'mso_mdoc',
      type: MDL,
      claims: { [NAMESPACE]: { given_name: givenName, family_name: 'Lovelace', age_over_18: true } },
    })
    return held.id
  }

  async function requestMdl() {
    const org = organization.agent.context
    return org.resolve(PresentationsService).createRequest(org, {
      verifierId,
      query: { type: 'dcql', dcql: mdlQuery },
    })
  }

  it('issues an mdoc by the pre-authorized flow and verifies the elements the holder discloses', async () => {
    const credentialId = await issueMdl('Ada')
    const request = await requestMdl()
    const holder = wallet.agent.context
    const asked = await holder.resolve(HolderService).resolveRequest(holder, request.requestUri)
    expect(asked.queries).toEqual([
      {
        id: 'mdl',
        format: 'mso_mdoc',
        type: MDL,
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
    await holder.resolve(HolderService).acceptRequest(holder, {
      requestId: asked.requestId,
      selections: { mdl: { credentialId } },
    })
    const org = organization.agent.context
    const result = await waitUntil(async () => {
      const found = await org.resolve(PresentationsService).get(org, request.session.id)
      return found.session.state === OpenId4VcVerificationSessionState.ResponseVerified ? found : undefined
    })
    expect(result.disclosed).toEqual([
      {
        queryId: 'mdl',
        format: 'mso_mdoc',
        issuerCertificateSubject: 'C=AT, O=Acme, CN=Acme document signer',
        type: MDL,
        claims: { [NAMESPACE]: { given_name: 'Ada', age_over_18: true } },
      },
    ])
    await holder.resolve(HolderService).deleteCredential(holder, credentialId)
  })

  it('carries a Token Status List entry in the MSO, which the verifier checks against the list', async () => {
    const org = organization.agent.context
    const [issuance] = await org.resolve(X509CertificatesService).list(org, { purpose: 'issuance', status: 'active' })
    // The list, served as the platform serves it; `signer` lets a case serve one signed by another key.
    const bytes = emptyTokenStatusList(64, 2)
    let signer: StatusListSignerJson = { method: 'x5c', certificateId: issuance.id }
    const server = createServer((_req, res) => {
      const payload = statusListTokenPayload({ uri, bytes, bits: 2, issuedAt: new Date(), ttlSeconds: 60 })
      signStatusListToken(org, signer, payload).then(
        (jwt) => res.writeHead(200, { 'content-type': STATUS_LIST_JWT_MEDIA_TYPE }).end(jwt),
        () => res.writeHead(500).end(),
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lists/1`
    try {
      const offer = await org.resolve(CredentialOffersService).create(org, issuerId, {
        credentials: [
          {
            templateId,
            claims: { [NAMESPACE]: { given_name: 'Lise', family_name: 'Meitner', age_over_18: true } },
            status: { idx: 5, uri, certificateId: issuance.id },
          },
        ],
      })
      const holder = wallet.agent.context
      const [held] = await holder.resolve(HolderService).acceptOffer(holder, { offerUri: offer.offerUri })
      const { firstCredential } = await holder.resolve(MdocApi).getById(held.id)
      expect(msoStatusOf(firstCredential)).toEqual({ idx: 5, uri })
      // Signed again after the status went in: the issuer signature and the element digests still verify.
      const trusted = await org.resolve(X509CertificatesService).trustedCertificates(org)
      expect(await firstCredential.verify(org, { trustedCertificates: trusted })).toEqual({ isValid: true })

      expect(await presentMdl(held.id)).toMatchObject({ state: OpenId4VcVerificationSessionState.ResponseVerified })
      setTokenStatus(bytes, 2, 5, TOKEN_STATUS.INVALID)
      expect(await presentMdl(held.id)).toMatchObject({
        state: OpenId4VcVerificationSessionState.Error,
        errorMessage: expect.stringMatching(/Status is not valid: the mdoc is revoked/),
      })
      setTokenStatus(bytes, 2, 5, TOKEN_STATUS.SUSPENDED)
      expect(await presentMdl(held.id)).toMatchObject({
        errorMessage: expect.stringMatching(/Status is not valid: the mdoc is suspended/),
      })
      // A list that is not signed by the mdoc's signing key says nothing about it: refused.
      setTokenStatus(bytes, 2, 5, TOKEN_STATUS.VALID)
      const other = await org.resolve(X509CertificatesService).create(org, {
        keyType: 'P-256',
        purpose: 'issuance',
        subject: { commonName: 'Another signer', country: 'AT' },
      })
      expect(other.status).not.toBe('active')
      signer = { method: 'x5c', certificateId: other.id }
      expect(await presentMdl(held.id)).toMatchObject({
        errorMessage: expect.stringMatching(/not signed by the mdoc's signing certificate/),
      })
      await holder.resolve(HolderService).deleteCredential(holder, held.id)
    } finally {
      server.close()
    }
  })

  /** The holder answers a new mdl request with `credentialId`; the verification session as it ends. */
  async function presentMdl(credentialId: string) {
    const request = await requestMdl()
    const holder = wallet.agent.context
    // A refused response fails the holder's answer too; the session says why.
    await holder
      .resolve(HolderService)
      .acceptRequest(holder, { requestUri: request.requestUri, selections: { mdl: { credentialId } } })
      .catch(() => undefined)
    const org = organization.agent.context
    return (await org.resolve(PresentationsService).get(org, request.session.id)).session
  }

  it('refuses an mdoc whose signing certificate has expired', async () => {
    const org = organization.agent.context
    const certificates = org.resolve(X509CertificatesService)
    const [authority] = await certificates.list(org, { purpose: 'authority', status: 'active' })
    // An Ed25519 document signer valid for 20 seconds: time to issue with, even on a loaded machine; then it expires.
    const shortLived = await certificates.create(org, {
      keyType: 'Ed25519',
      purpose: 'issuance',
      subject: { commonName: 'Acme short-lived signer', country: 'AT' },
      issuerCertificateId: authority.id,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 20_000),
    })
    await certificates.activate(org, shortLived.id)
    const credentialId = await issueMdl('Grace')
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, new Date(shortLived.notAfter).getTime() - Date.now() + 1500)),
    )
    await expect(certificates.activate(org, shortLived.id)).rejects.toThrow(InvalidStateError)

    const request = await requestMdl()
    const holder = wallet.agent.context
    await expect(
      holder
        .resolve(HolderService)
        .acceptRequest(holder, { requestUri: request.requestUri, selections: { mdl: { credentialId } } }),
    ).rejects.toThrow(/refused/)
    const found = await org.resolve(PresentationsService).get(org, request.session.id)
    expect(found.session.state).toBe(OpenId4VcVerificationSessionState.Error)
    expect(found.session.errorMessage).toMatch(
      /Certificate: 'C=AT, CN=Acme short-lived signer' used after it is allowed/,
    )
    expect(found.disclosed).toBeUndefined()
  })
})
