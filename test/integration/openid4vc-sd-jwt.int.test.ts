import { OpenId4VcIssuanceSessionState, OpenId4VcVerificationSessionState } from '@credo-ts/openid4vc'
import { InvalidInputError } from '@idplane/common'

import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

const VCT = 'https://acme.example/credentials/employee'

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('OpenID4VC with SD-JWT VC (our issuer and verifier agent, a Credo holder agent, HTTP)', () => {
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

  it('issues by the pre-authorized flow with a transaction code and verifies a selectively disclosed presentation', async () => {
    const org = organization.agent.context
    const certificates = org.resolve(X509CertificatesService)
    const verification = await certificates.create(org, {
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier', country: 'AT' },
      sanDnsNames: ['localhost'],
    })
    expect(verification.status).toBe('active')
    const did = await organization.agent.dids.create({
      method: 'key',
      options: { createKey: { type: { kty: 'EC', crv: 'P-256' } } },
    })
    const issuerDid = String(did.didState.did)

    const issuer = await org.resolve(IssuersService).create(org, { display: [{ name: 'Acme' }], batchSize: 2 })
    const template = await org.resolve(CredentialTemplatesService).create(org, issuer.issuerId, {
      name: 'Employee',
      format: 'dc+sd-jwt',
      vct: VCT,
      claims: [
        { path: ['given_name'], mandatory: true },
        { path: ['family_name'], mandatory: true },
        { path: ['department'] },
        { path: ['employee_number'], selectivelyDisclosable: false },
      ],
      signer: { method: 'did', did: issuerDid },
      display: [{ name: 'Acme employee' }],
    })
    const metadata = await fetch(
      `${organization.endpoint}/.well-known/openid-credential-issuer/oid4vci/${issuer.issuerId}`,
    )
    expect(metadata.status).toBe(200)
    const metadataJson = (await metadata.json()) as Record<string, unknown>
    expect(metadataJson.credential_issuer).toBe(`${organization.endpoint}/oid4vci/${issuer.issuerId}`)
    expect(metadataJson.credential_configurations_supported).toMatchObject({
      [template.id]: { format: 'dc+sd-jwt', vct: VCT },
    })

    const offers = org.resolve(CredentialOffersService)
    await expect(
      offers.create(org, issuer.issuerId, {
        credentials: [{ templateId: template.id, claims: { given_name: 'Ada' } }],
      }),
    ).rejects.toThrow(InvalidInputError)
    const offer = await offers.create(org, issuer.issuerId, {
      credentials: [
        {
          templateId: template.id,
          claims: { given_name: 'Ada', family_name: 'Lovelace', department: 'Engines', employee_number: 42 },
        },
      ],
      txCode: { length: 6, description: 'Sent by mail' },
    })
    expect(offer.txCode).toMatch(/^\d{6}$/)
    expect(offer.offerUri).toMatch(/^openid-credential-offer:\/\//)

    const holder = wallet.agent.context
    const walletService = holder.resolve(HolderService)
    const summary = await walletService.resolveOffer(holder, offer.offerUri)
    expect(summary).toMatchObject({
      isPreAuthorized: true,
      txCode: { length: 6, inputMode: 'numeric', description: 'Sent by mail' },
      credentials: [{ configurationId: template.id, format: 'dc+sd-jwt', name: 'Acme employee' }],
    })
    await expect(walletService.acceptOffer(holder, { offerUri: offer.offerUri })).rejects.toThrow(/transaction code/)
    await expect(
      walletService.acceptOffer(holder, { offerUri: offer.offerUri, txCode: wrongCode(String(offer.txCode)) }),
    ).rejects.toThrow(InvalidInputError)

    const held = await walletService.acceptOffer(holder, {
      offerUri: offer.offerUri,
      txCode: offer.txCode,
      batchSize: 2,
    })
    expect(held).toHaveLength(1)
    expect(held[0]).toMatchObject({
      format: 'dc+sd-jwt',
      type: VCT,
      instances: 2,
      claims: { given_name: 'Ada', family_name: 'Lovelace', department: 'Engines', employee_number: 42 },
    })
    const session = await waitFor(async () => {
      const record = await offers.get(org, offer.session.id)
      return record.state === OpenId4VcIssuanceSessionState.Completed ? record : undefined
    })
    expect(session.issuedCredentials).toEqual([template.id])
    // Batch issuance: two copies, each bound to its own holder key (no correlation between presentations).
    const stored = await wallet.agent.sdJwtVc.getById(held[0].id)
    const boundKeys = stored.credentialInstances.map((instance) => {
      const payload = JSON.parse(Buffer.from(instance.compactSdJwtVc.split('.')[1], 'base64url').toString('utf8'))
      return JSON.stringify(payload.cnf)
    })
    expect(new Set(boundKeys).size).toBe(2)

    const verifier = await org.resolve(VerifiersService).create(org, { clientName: 'Acme HR' })
    const presentations = org.resolve(PresentationsService)
    const request = await presentations.createRequest(org, {
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
    expect(request.requestUri).toMatch(/^openid4vp:\/\/\?client_id=x509_san_dns%3Alocalhost/)

    // The wallet trusts the verifier's certificate: its request is signed under it.
    await holder.resolve(X509CertificatesService).addTrustAnchor(holder, { certificate: verification.certificate })
    const asked = await walletService.resolveRequest(holder, request.requestUri)
    expect(asked).toMatchObject({
      verifier: { clientId: 'x509_san_dns:localhost', clientIdPrefix: 'x509_san_dns' },
      canBeSatisfied: true,
      queries: [{ id: 'employee', candidates: [{ credentialId: held[0].id, format: 'dc+sd-jwt' }] }],
    })
    await walletService.acceptRequest(holder, { requestId: asked.requestId })

    const result = await waitFor(async () => {
      const found = await presentations.get(org, request.session.id)
      return found.session.state === OpenId4VcVerificationSessionState.ResponseVerified ? found : undefined
    })
    expect(result.disclosed).toEqual([
      {
        queryId: 'employee',
        format: 'dc+sd-jwt',
        issuer: issuerDid,
        type: VCT,
        claims: { given_name: 'Ada', department: 'Engines', employee_number: 42 },
      },
    ])
  })
})

function wrongCode(code: string): string {
  return code.replace(/./, (digit) => String((Number(digit) + 1) % 10))
}
