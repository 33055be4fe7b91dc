import { OpenId4VcVerificationSessionState } from '@credo-ts/openid4vc'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerificationTemplatesService } from '../../agent/src/openid4vc/verifier/verification-templates.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import { waitUntil } from '../helpers/agent-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

const degreeDefinition = {
  id: 'degree-request',
  input_descriptors: [
    {
      id: 'degree',
      format: { jwt_vc: { alg: ['EdDSA', 'ES256'] } },
      constraints: { fields: [{ path: ['$.vc.type.*'], filter: { type: 'string', pattern: 'UniversityDegree' } }] },
    },
  ],
}

describe('OpenID4VC with W3C JWT VCs, Presentation Exchange and a DID-signed request (two agents, HTTP)', () => {
  let organization: OpenId4VcTestAgent
  let wallet: OpenId4VcTestAgent

  beforeAll(async () => {
    organization = await startOpenId4VcAgent()
    wallet = await startOpenId4VcAgent()
  })

  afterAll(async () => {
    await wallet?.close()
    await organization?.close()
  })

  it('issues a jwt_vc_json credential bound to a holder DID and verifies it through a stored verification template', async () => {
    const org = organization.agent.context
    const did = String(
      (
        await organization.agent.dids.create({
          method: 'key',
          options: { createKey: { type: { kty: 'OKP', crv: 'Ed25519' } } },
        })
      ).didState.did,
    )
    const issuer = await org.resolve(IssuersService).create(org, { issuerId: 'university' })
    const template = await org.resolve(CredentialTemplatesService).create(org, issuer.issuerId, {
      name: 'Degree',
      format: 'jwt_vc_json',
      types: ['VerifiableCredential', 'UniversityDegree'],
      claims: [{ path: ['degree', 'name'], mandatory: true }, { path: ['graduated'] }],
      signer: { method: 'did', did },
      validityDays: 3650,
    })
    const offer = await org.resolve(CredentialOffersService).create(org, issuer.issuerId, {
      credentials: [{ templateId: template.id, claims: { degree: { name: 'BSc Mathematics' }, graduated: 2024 } }],
    })

    const holder = wallet.agent.context
    const [held] = await holder
      .resolve(HolderService)
      .acceptOffer(holder, { offerUri: offer.offerUri, keyType: 'Ed25519' })
    expect(held).toMatchObject({
      format: 'jwt_vc_json',
      type: ['VerifiableCredential', 'UniversityDegree'],
      claims: { degree: { name: 'BSc Mathematics' }, graduated: 2024 },
    })
    expect(String((held.claims as { id?: string }).id)).toMatch(/^did:key:z6Mk/)

    const verifier = await org
      .resolve(VerifiersService)
      .create(org, { verifierId: 'admissions', clientName: 'Admissions' })
    const verificationTemplate = await org.resolve(VerificationTemplatesService).create(org, {
      name: 'Degree check',
      query: { type: 'presentation-exchange', definition: degreeDefinition },
      responseMode: 'direct_post',
      signer: { method: 'did', did },
    })
    const presentations = org.resolve(PresentationsService)
    const request = await presentations.createRequest(org, {
      verifierId: verifier.verifierId,
      templateId: verificationTemplate.id,
    })
    expect(request.requestUri).toContain(`client_id=${encodeURIComponent(did)}`)

    const asked = await holder.resolve(HolderService).resolveRequest(holder, request.requestUri)
    expect(asked).toMatchObject({
      verifier: { clientId: did, clientIdPrefix: 'decentralized_identifier' },
      responseMode: 'direct_post',
      canBeSatisfied: true,
      queries: [{ id: 'degree', candidates: [{ credentialId: held.id }] }],
    })
    await holder.resolve(HolderService).acceptRequest(holder, { requestId: asked.requestId })
    const result = await waitUntil(async () => {
      const found = await presentations.get(org, request.session.id)
      return found.session.state === OpenId4VcVerificationSessionState.ResponseVerified ? found : undefined
    })
    expect(result.disclosed).toEqual([
      {
        queryId: 'degree',
        format: 'jwt_vc_json',
        issuer: did,
        type: ['VerifiableCredential', 'UniversityDegree'],
        claims: { id: held.claims.id, degree: { name: 'BSc Mathematics' }, graduated: 2024 },
      },
    ])
  })
})
