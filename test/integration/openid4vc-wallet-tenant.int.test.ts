import { OpenId4VcVerificationSessionState } from '@credo-ts/openid4vc'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { TenantsService } from '../../agent/src/tenancy/tenants.service'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

const VCT = 'https://acme.example/credentials/membership'

describe('OpenID4VC holder in a base-wallet tenant (the cloud wallet)', () => {
  let organization: OpenId4VcTestAgent
  let baseWallet: OpenId4VcTestAgent

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    baseWallet = await startOpenId4VcAgent()
  })

  afterAll(async () => {
    await baseWallet?.close()
    await organization?.close()
  })

  it("keeps each tenant's credentials and trust anchors in its own context", async () => {
    const org = organization.agent.context
    const certificates = org.resolve(X509CertificatesService)
    const issuance = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'issuance',
      subject: { commonName: 'Acme' },
    })
    const verification = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier' },
      sanDnsNames: ['localhost'],
    })
    const { issuerId } = await org.resolve(IssuersService).create(org, {})
    const template = await org.resolve(CredentialTemplatesService).create(org, issuerId, {
      name: 'Membership',
      format: 'dc+sd-jwt',
      vct: VCT,
      claims: [{ path: ['member_id'], mandatory: true }],
      signer: { method: 'x5c' },
    })
    const offer = await org.resolve(CredentialOffersService).create(org, issuerId, {
      credentials: [{ templateId: template.id, claims: { member_id: 'M-1' } }],
    })

    const tenancy = baseWallet.agent.dependencyManager.resolve(TenantsService)
    const alice = await tenancy.create({ label: 'alice' })
    const bob = await tenancy.create({ label: 'bob' })
    const aliceSession = await tenancy.openSession(alice.id)
    const bobSession = await tenancy.openSession(bob.id)
    try {
      const aliceContext = aliceSession.agent.context
      const bobContext = bobSession.agent.context
      const holder = aliceContext.resolve(HolderService)
      // The x5c-signed SD-JWT VC is checked on receipt against the tenant's own trust anchors.
      await expect(holder.acceptOffer(aliceContext, { offerUri: offer.offerUri })).rejects.toThrow(
        expect.objectContaining({
          name: 'UpstreamError',
          message: expect.stringMatching(/could not be received: .*trusted/i),
        }),
      )
      await aliceContext
        .resolve(X509CertificatesService)
        .addTrustAnchor(aliceContext, { certificate: issuance.certificate })
      await aliceContext
        .resolve(X509CertificatesService)
        .addTrustAnchor(aliceContext, { certificate: verification.certificate })
      const retry = await org.resolve(CredentialOffersService).create(org, issuerId, {
        credentials: [{ templateId: template.id, claims: { member_id: 'M-1' } }],
      })
      const [held] = await holder.acceptOffer(aliceContext, { offerUri: retry.offerUri })
      expect(held).toMatchObject({ format: 'dc+sd-jwt', claims: { member_id: 'M-1' } })

      expect(await holder.listCredentials(aliceContext)).toHaveLength(1)
      expect(await bobContext.resolve(HolderService).listCredentials(bobContext)).toEqual([])
      expect(await baseWallet.agent.context.resolve(HolderService).listCredentials(baseWallet.agent.context)).toEqual(
        [],
      )
      expect(await bobContext.resolve(X509CertificatesService).listTrustAnchors(bobContext)).toEqual([])

      const verifier = await org.resolve(VerifiersService).create(org, {})
      const request = await org.resolve(PresentationsService).createRequest(org, {
        verifierId: verifier.verifierId,
        query: { type: 'dcql', dcql: { credentials: [{ id: 'm', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } }] } },
      })
      // Bob trusts nobody: the verifier's signed request does not verify for him.
      await expect(bobContext.resolve(HolderService).resolveRequest(bobContext, request.requestUri)).rejects.toThrow(
        /could not be resolved/,
      )
      // A query without claims asks for none of the selectively disclosable ones.
      const retryRequest = await org.resolve(PresentationsService).createRequest(org, {
        verifierId: verifier.verifierId,
        query: {
          type: 'dcql',
          dcql: {
            credentials: [
              { id: 'm', format: 'dc+sd-jwt', meta: { vct_values: [VCT] }, claims: [{ path: ['member_id'] }] },
            ],
          },
        },
      })
      await holder.acceptRequest(aliceContext, { requestUri: retryRequest.requestUri })
      const result = await org.resolve(PresentationsService).get(org, retryRequest.session.id)
      expect(result.session.state).toBe(OpenId4VcVerificationSessionState.ResponseVerified)
      expect(result.disclosed?.[0].claims).toEqual({ member_id: 'M-1' })
    } finally {
      await aliceSession.end()
      await bobSession.end()
    }
  })
})
