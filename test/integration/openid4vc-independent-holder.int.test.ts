import { OpenId4VcVerificationSessionState } from '@credo-ts/openid4vc'

import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import type { X509CertificateRecord } from '../../agent/src/openid4vc/x509/x509-certificate.record'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'
import {
  askedClaims,
  fetchVerifiedRequest,
  postResponse,
  presentSdJwtVc,
  receiveSdJwtVc,
  sdJwtInstance,
} from '../helpers/openid4vc-independent-holder'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

const VCT = 'https://acme.example/credentials/employee'

/**
 * A holder that shares no code with Credo (test/helpers/openid4vc-independent-holder.ts): Sphereon's OID4VCI client
 * receives the credential, the SD-JWT library verifies it and makes the presentation, OID4VP by hand on node:crypto.
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
    const held = await receiveSdJwtVc({ offerUri: offer.offerUri, txCode: offer.txCode, configurationId: template.id })
    const holderJwk = held.holderKey.publicKey.export({ format: 'jwk' })

    // The wallet checks the credential itself: x5c chain to the issuance certificate, digests, holder binding.
    const verified = await sdJwtInstance(held.holderKey.privateKey, issuance.certificate).verify(held.credential)
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
    const requestPayload = await fetchVerifiedRequest(request.requestUri, verification.certificate)
    expect(requestPayload).toMatchObject({ client_id: 'x509_san_dns:localhost', response_mode: 'direct_post' })
    const asked = askedClaims(requestPayload)
    const presentation = await presentSdJwtVc(held, issuance.certificate, asked.names, requestPayload)
    const answer = await postResponse(requestPayload, { vp_token: { [asked.queryId]: [presentation] } })
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
})
