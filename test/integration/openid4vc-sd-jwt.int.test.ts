import { createHash } from 'node:crypto'

import { JwsService, JwtPayload, type SdJwtVcRecord } from '@credo-ts/core'
import {
  OpenId4VcHolderApi,
  OpenId4VcIssuanceSessionState,
  OpenId4VcVerificationSessionState,
} from '@credo-ts/openid4vc'
import { InvalidInputError } from '@idplane/common'

import { StateChangeOutbox } from '../../agent/src/events/state-change-outbox'
import { HolderService } from '../../agent/src/openid4vc/holder/holder.service'
import { CredentialOffersService } from '../../agent/src/openid4vc/issuer/credential-offers.service'
import { CredentialTemplatesService } from '../../agent/src/openid4vc/issuer/credential-templates.service'
import { IssuersService } from '../../agent/src/openid4vc/issuer/issuers.service'
import { TX_CODE_ATTEMPTS, TX_CODE_EXHAUSTED_MESSAGE } from '../../agent/src/openid4vc/issuer/tx-code-attempts'
import { PresentationsService } from '../../agent/src/openid4vc/verifier/presentations.service'
import { VerifiersService } from '../../agent/src/openid4vc/verifier/verifiers.service'
import type { X509CertificateRecord } from '../../agent/src/openid4vc/x509/x509-certificate.record'
import { X509CertificatesService } from '../../agent/src/openid4vc/x509/x509-certificates.service'
import { waitUntil } from '../helpers/agent-process'
import { type OpenId4VcTestAgent, startOpenId4VcAgent } from '../helpers/openid4vc-agents'

// Two agents start per file; on PGlite at a machine load of 20+ that alone can take over a minute.
jest.setTimeout(180_000)

const VCT = 'https://acme.example/credentials/employee'

const employeeQuery = {
  credentials: [
    {
      id: 'employee',
      format: 'dc+sd-jwt',
      meta: { vct_values: [VCT] },
      claims: [{ path: ['given_name'] }, { path: ['department'] }],
    },
  ],
}

describe('OpenID4VC with SD-JWT VC (our issuer and verifier agent, a Credo holder agent, HTTP)', () => {
  let organization: OpenId4VcTestAgent
  let wallet: OpenId4VcTestAgent
  let verification: X509CertificateRecord
  let issuerDid: string
  let issuerId: string
  let templateId: string
  let verifierId: string
  /** Event bodies the organization's outbox committed (the real storage and outbox, a recording sender). */
  const events: { kind: string; record: Record<string, unknown> }[] = []
  const sender = {
    reserve: () => undefined,
    release: () => undefined,
    enqueue: (event: { body: string }) => events.push(JSON.parse(event.body) as (typeof events)[number]),
  }

  beforeAll(async () => {
    organization = await startOpenId4VcAgent({ events: new StateChangeOutbox('acme', sender) })
    wallet = await startOpenId4VcAgent()
    const org = organization.agent.context
    verification = await org.resolve(X509CertificatesService).create(org, {
      keyType: 'P-256',
      purpose: 'verification',
      subject: { commonName: 'Acme verifier', country: 'AT' },
      sanDnsNames: ['localhost'],
    })
    const did = await organization.agent.dids.create({
      method: 'key',
      options: { createKey: { type: { kty: 'EC', crv: 'P-256' } } },
    })
    issuerDid = String(did.didState.did)
    issuerId = (await org.resolve(IssuersService).create(org, { display: [{ name: 'Acme' }], batchSize: 2 })).issuerId
    templateId = (
      await org.resolve(CredentialTemplatesService).create(org, issuerId, {
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
    ).id
    verifierId = (await org.resolve(VerifiersService).create(org, { clientName: 'Acme HR' })).verifierId
    // The wallet trusts the verifier's certificate: its requests are signed under it.
    const holder = wallet.agent.context
    await holder.resolve(X509CertificatesService).addTrustAnchor(holder, { certificate: verification.certificate })
  })

  afterAll(async () => {
    await wallet?.close()
    await organization?.close()
  })

  async function offerEmployee(givenName: string, txCode?: { length: number; description?: string }) {
    const org = organization.agent.context
    return org.resolve(CredentialOffersService).create(org, issuerId, {
      credentials: [
        {
          templateId,
          claims: { given_name: givenName, family_name: 'Lovelace', department: 'Engines', employee_number: 42 },
        },
      ],
      txCode,
    })
  }

  it('issues by the pre-authorized flow with a transaction code and verifies a selectively disclosed presentation', async () => {
    const org = organization.agent.context
    expect(verification.status).toBe('active')
    const metadata = await fetch(`${organization.endpoint}/.well-known/openid-credential-issuer/oid4vci/${issuerId}`)
    expect(metadata.status).toBe(200)
    const metadataJson = (await metadata.json()) as Record<string, unknown>
    expect(metadataJson.credential_issuer).toBe(`${organization.endpoint}/oid4vci/${issuerId}`)
    expect(metadataJson.credential_configurations_supported).toMatchObject({
      [templateId]: { format: 'dc+sd-jwt', vct: VCT },
    })
    expect(metadataJson.batch_credential_issuance).toEqual({ batch_size: 2 })

    const offers = org.resolve(CredentialOffersService)
    await expect(
      offers.create(org, issuerId, { credentials: [{ templateId, claims: { given_name: 'Ada' } }] }),
    ).rejects.toThrow(InvalidInputError)
    const offer = await offerEmployee('Ada', { length: 6, description: 'Sent by mail' })
    expect(offer.txCode).toMatch(/^\d{6}$/)
    expect(offer.offerUri).toMatch(/^openid-credential-offer:\/\//)

    const holder = wallet.agent.context
    const walletService = holder.resolve(HolderService)
    const summary = await walletService.resolveOffer(holder, offer.offerUri)
    expect(summary).toMatchObject({
      isPreAuthorized: true,
      txCode: { length: 6, inputMode: 'numeric', description: 'Sent by mail' },
      credentials: [{ configurationId: templateId, format: 'dc+sd-jwt', name: 'Acme employee' }],
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
    const session = await waitUntil(async () => {
      const record = await offers.get(org, offer.session.id)
      return record.state === OpenId4VcIssuanceSessionState.Completed ? record : undefined
    })
    expect(session.issuedCredentials).toEqual([templateId])
    // Batch issuance: two copies, each bound to its own holder key (no correlation between presentations).
    const stored = await wallet.agent.sdJwtVc.getById(held[0].id)
    const boundKeys = stored.credentialInstances.map((instance) =>
      JSON.stringify(payloadOf(instance.compactSdJwtVc).cnf),
    )
    expect(new Set(boundKeys).size).toBe(2)

    const presentations = org.resolve(PresentationsService)
    const request = await presentations.createRequest(org, { verifierId, query: { type: 'dcql', dcql: employeeQuery } })
    expect(request.requestUri).toMatch(/^openid4vp:\/\/\?client_id=x509_san_dns%3Alocalhost/)

    const asked = await walletService.resolveRequest(holder, request.requestUri)
    expect(asked).toMatchObject({
      verifier: { clientId: 'x509_san_dns:localhost', clientIdPrefix: 'x509_san_dns' },
      responseMode: 'direct_post.jwt',
      canBeSatisfied: true,
      queries: [{ id: 'employee', candidates: [{ credentialId: held[0].id, format: 'dc+sd-jwt' }] }],
    })
    await walletService.acceptRequest(holder, { requestId: asked.requestId })

    const result = await waitUntil(async () => {
      const found = await presentations.get(org, request.session.id)
      return found.session.state === OpenId4VcVerificationSessionState.ResponseVerified ? found : undefined
    })
    // family_name was not asked for and stays undisclosed; employee_number is not selectively disclosable.
    expect(result.disclosed).toEqual([
      {
        queryId: 'employee',
        format: 'dc+sd-jwt',
        issuer: issuerDid,
        type: VCT,
        claims: { given_name: 'Ada', department: 'Engines', employee_number: 42 },
      },
    ])

    // Every state of both sessions went out through the outbox, the offer's codes left out.
    const statesOf = (kind: string, id: string) =>
      events.filter((event) => event.kind === kind && event.record.id === id).map((event) => event.record.state)
    expect(statesOf('openid4vc-issuance', offer.session.id)).toEqual([
      'OfferCreated',
      'OfferUriRetrieved',
      'AccessTokenRequested',
      'AccessTokenCreated',
      'CredentialRequestReceived',
      'Completed',
    ])
    expect(statesOf('openid4vc-verification', request.session.id)).toEqual([
      'RequestCreated',
      'RequestUriRetrieved',
      'ResponseVerified',
    ])
    const issuanceBodies = JSON.stringify(events.filter((event) => event.kind === 'openid4vc-issuance'))
    expect(issuanceBodies).not.toContain(String(offer.txCode))
    expect(issuanceBodies).not.toContain('preAuthorizedCode')
    // Credo repeats the code in the offer payload's grants: that copy is left out too.
    expect(offer.session.preAuthorizedCode).toEqual(expect.any(String))
    expect(issuanceBodies).not.toContain(String(offer.session.preAuthorizedCode))
  })

  it('ends a pre-authorized offer after five wrong transaction codes; four leave it redeemable', async () => {
    const org = organization.agent.context
    const offers = org.resolve(CredentialOffersService)
    const holder = wallet.agent.context
    const walletService = holder.resolve(HolderService)
    const guess = (offerUri: string, code: string) => walletService.acceptOffer(holder, { offerUri, txCode: code })

    const survivor = await offerEmployee('Grace', { length: 6 })
    for (let attempt = 0; attempt < TX_CODE_ATTEMPTS - 1; attempt++) {
      await expect(guess(survivor.offerUri, wrongCode(String(survivor.txCode)))).rejects.toThrow(InvalidInputError)
    }
    await expect(guess(survivor.offerUri, String(survivor.txCode))).resolves.toHaveLength(1)

    const guessed = await offerEmployee('Mallory', { length: 6 })
    for (let attempt = 0; attempt < TX_CODE_ATTEMPTS; attempt++) {
      await expect(guess(guessed.offerUri, wrongCode(String(guessed.txCode)))).rejects.toThrow(InvalidInputError)
    }
    const ended = await waitUntil(async () => {
      const record = await offers.get(org, guessed.session.id)
      return record.state === OpenId4VcIssuanceSessionState.Error ? record : undefined
    })
    expect(ended.errorMessage).toBe(TX_CODE_EXHAUSTED_MESSAGE)
    // The right code no longer helps, and the guard answers without reaching Credo.
    await expect(guess(guessed.offerUri, String(guessed.txCode))).rejects.toThrow(InvalidInputError)
    expect((await offers.get(org, guessed.session.id)).state).toBe(OpenId4VcIssuanceSessionState.Error)
  })

  it('refuses a tampered disclosure, a wrong nonce and a replayed response', async () => {
    const org = organization.agent.context
    const holder = wallet.agent.context
    const offer = await offerEmployee('Grace')
    const [held] = await holder.resolve(HolderService).acceptOffer(holder, { offerUri: offer.offerUri })
    const presentations = org.resolve(PresentationsService)
    const newRequest = () =>
      presentations.createRequest(org, {
        verifierId,
        query: { type: 'dcql', dcql: employeeQuery },
        responseMode: 'direct_post',
      })

    // An honest answer to request A, kept to be sent again.
    const requestA = await newRequest()
    const holderApi = holder.resolve(OpenId4VcHolderApi)
    const resolvedA = await holderApi.resolveOpenId4VpAuthorizationRequest(requestA.requestUri)
    if (!resolvedA.dcql) throw new Error('expected a DCQL request')
    const answerA = await holderApi.acceptOpenId4VpAuthorizationRequest({
      authorizationRequestPayload: resolvedA.authorizationRequestPayload,
      dcql: { credentials: holderApi.selectCredentialsForDcqlRequest(resolvedA.dcql.queryResult) },
    })
    expect(answerA.ok).toBe(true)
    await waitUntil(async () =>
      (await presentations.get(org, requestA.session.id)).session.state ===
      OpenId4VcVerificationSessionState.ResponseVerified
        ? true
        : undefined,
    )
    const vpTokenA = answerA.authorizationResponsePayload.vp_token as Record<string, string[]>

    // Replayed: the same response again to request A.
    const replay = await postResponse(requestA.session.requestPayload, {
      vp_token: vpTokenA,
      state: stateOf(requestA.session.requestPayload),
    })
    expect(replay.status).toBeGreaterThanOrEqual(400)
    expect((await presentations.get(org, requestA.session.id)).session.state).toBe(
      OpenId4VcVerificationSessionState.ResponseVerified,
    )

    // Wrong nonce: A's presentation (bound to A's nonce) sent as the answer to request B.
    const requestB = await newRequest()
    const wrongNonce = await postResponse(requestB.session.requestPayload, {
      vp_token: vpTokenA,
      state: stateOf(requestB.session.requestPayload),
    })
    expect(wrongNonce.status).toBe(400)
    const sessionB = (await presentations.get(org, requestB.session.id)).session
    expect(sessionB.state).toBe(OpenId4VcVerificationSessionState.Error)
    expect(sessionB.errorMessage).toMatch(/nonce/i)

    // Tampered: a disclosure's value changed, the key binding JWT honestly made over the tampered presentation.
    // The same construction without the change is accepted (request D), so only the change is refused.
    const record = await wallet.agent.sdJwtVc.getById(held.id)
    const requestD = await newRequest()
    const untampered = await presentBuiltByHand(wallet, record, requestD.session.requestPayload, { tamper: false })
    const honest = await postResponse(requestD.session.requestPayload, {
      vp_token: { employee: [untampered] },
      state: stateOf(requestD.session.requestPayload),
    })
    expect(honest.status).toBe(200)
    expect((await presentations.get(org, requestD.session.id)).disclosed?.[0].claims).toMatchObject({
      given_name: 'Grace',
    })
    const requestC = await newRequest()
    const tampered = await presentBuiltByHand(wallet, record, requestC.session.requestPayload, { tamper: true })
    const tamperedAnswer = await postResponse(requestC.session.requestPayload, {
      vp_token: { employee: [tampered] },
      state: stateOf(requestC.session.requestPayload),
    })
    expect(tamperedAnswer.status).toBe(400)
    const sessionC = await presentations.get(org, requestC.session.id)
    expect(sessionC.session.state).toBe(OpenId4VcVerificationSessionState.Error)
    expect(sessionC.disclosed).toBeUndefined()
  })

  it('lets the holder withhold a claim the verifier can do without, and the verifier refuse one it cannot', async () => {
    const org = organization.agent.context
    const holder = wallet.agent.context
    const walletService = holder.resolve(HolderService)
    const [held] = await walletService.acceptOffer(holder, { offerUri: (await offerEmployee('Mary')).offerUri })
    const presentations = org.resolve(PresentationsService)
    const ask = (claimSets?: string[][]) =>
      presentations.createRequest(org, {
        verifierId,
        query: {
          type: 'dcql',
          dcql: {
            credentials: [
              {
                id: 'employee',
                format: 'dc+sd-jwt',
                meta: { vct_values: [VCT] },
                claims: [
                  { id: 'name', path: ['given_name'] },
                  { id: 'dept', path: ['department'] },
                ],
                ...(claimSets ? { claim_sets: claimSets } : {}),
              },
            ],
          },
        },
      })
    const selections = { employee: { credentialId: held.id, withhold: [['department']] } }

    const flexible = await ask([['name', 'dept'], ['name']])
    const askedFlexible = await walletService.resolveRequest(holder, flexible.requestUri)
    await walletService.acceptRequest(holder, { requestId: askedFlexible.requestId, selections })
    const accepted = await presentations.get(org, flexible.session.id)
    expect(accepted.session.state).toBe(OpenId4VcVerificationSessionState.ResponseVerified)
    expect(accepted.disclosed?.[0].claims).toEqual({ given_name: 'Mary', employee_number: 42 })

    const strict = await ask()
    const askedStrict = await walletService.resolveRequest(holder, strict.requestUri)
    await expect(walletService.acceptRequest(holder, { requestId: askedStrict.requestId, selections })).rejects.toThrow(
      /refused/,
    )
    expect((await presentations.get(org, strict.session.id)).session.state).toBe(
      OpenId4VcVerificationSessionState.Error,
    )
    // The kept request is gone once answered.
    await expect(walletService.acceptRequest(holder, { requestId: askedStrict.requestId })).rejects.toThrow(
      'Authorization request not found',
    )
  })

  it('makes a HAIP request (DCQL, direct_post.jwt, x509_hash client id) that the wallet answers', async () => {
    const org = organization.agent.context
    const holder = wallet.agent.context
    await holder.resolve(HolderService).acceptOffer(holder, { offerUri: (await offerEmployee('Hedy')).offerUri })
    const presentations = org.resolve(PresentationsService)
    await expect(
      presentations.createRequest(org, {
        verifierId,
        isHaip: true,
        responseMode: 'direct_post',
        query: { type: 'dcql', dcql: employeeQuery },
      }),
    ).rejects.toThrow(InvalidInputError)
    const request = await presentations.createRequest(org, {
      verifierId,
      isHaip: true,
      query: { type: 'dcql', dcql: employeeQuery },
    })
    expect(request.requestUri).toMatch(/client_id=x509_hash%3A/)
    const asked = await holder.resolve(HolderService).resolveRequest(holder, request.requestUri)
    expect(asked).toMatchObject({ verifier: { clientIdPrefix: 'x509_hash' }, responseMode: 'direct_post.jwt' })
    await holder.resolve(HolderService).acceptRequest(holder, { requestId: asked.requestId })
    expect((await presentations.get(org, request.session.id)).session.state).toBe(
      OpenId4VcVerificationSessionState.ResponseVerified,
    )
  })

  it('issues by the authorization code flow once the wallet presented what the template asks for', async () => {
    const org = organization.agent.context
    const holder = wallet.agent.context
    const permit = await org.resolve(CredentialTemplatesService).create(org, issuerId, {
      name: 'Parking permit',
      format: 'dc+sd-jwt',
      vct: 'https://acme.example/credentials/parking',
      claims: [{ path: ['plate'], mandatory: true }],
      signer: { method: 'did', did: issuerDid },
      authorization: { type: 'presentation', dcql: employeeQuery },
    })
    const offers = org.resolve(CredentialOffersService)
    const offer = await offers.create(org, issuerId, {
      credentials: [{ templateId: permit.id, claims: { plate: 'W-12345' } }],
    })
    expect(offer.txCode).toBeUndefined()
    const summary = await holder.resolve(HolderService).resolveOffer(holder, offer.offerUri)
    expect(summary.isPreAuthorized).toBe(false)
    // The wallet holds an employee credential: it presents it, then gets the permit.
    await holder.resolve(HolderService).acceptOffer(holder, { offerUri: (await offerEmployee('Ada')).offerUri })
    const [permitHeld] = await holder.resolve(HolderService).acceptOffer(holder, { offerUri: offer.offerUri })
    expect(permitHeld).toMatchObject({ format: 'dc+sd-jwt', claims: { plate: 'W-12345' } })
    const session = await waitUntil(async () => {
      const record = await offers.get(org, offer.session.id)
      return record.state === OpenId4VcIssuanceSessionState.Completed ? record : undefined
    })
    expect(session.presentation?.openId4VcVerificationSessionId).toBeDefined()
    const presented = await org
      .resolve(PresentationsService)
      .get(org, String(session.presentation?.openId4VcVerificationSessionId))
    expect(presented.session.state).toBe(OpenId4VcVerificationSessionState.ResponseVerified)
    expect(presented.disclosed?.[0].claims).toMatchObject({ department: 'Engines' })
  })
})

type RequestPayload = Record<string, unknown>

function stateOf(payload: RequestPayload): string {
  return String(payload.state)
}

/** A direct_post response as a wallet sends it (form-encoded, `vp_token` as JSON). */
async function postResponse(
  payload: RequestPayload,
  response: { vp_token: unknown; state: string },
): Promise<Response> {
  return fetch(String(payload.response_uri), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ vp_token: JSON.stringify(response.vp_token), state: response.state }).toString(),
  })
}

/**
 * The holder's SD-JWT with `given_name` and `department` disclosed (with `tamper`, the `given_name` disclosure's value
 * changed) and a key binding JWT the holder's key signs over exactly that presentation (right audience and nonce):
 * only the disclosure's digest, which the issuer signed, can give a tampered one away.
 */
async function presentBuiltByHand(
  wallet: OpenId4VcTestAgent,
  record: SdJwtVcRecord,
  request: RequestPayload,
  options: { tamper: boolean },
): Promise<string> {
  const instance = record.credentialInstances[0]
  const [issuerJwt, ...disclosures] = instance.compactSdJwtVc.split('~').filter((part) => part !== '')
  const chosen = disclosures.filter((disclosure) => {
    const [, name] = JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8')) as [string, string, unknown]
    return name === 'given_name' || name === 'department'
  })
  const forged = chosen.map((disclosure) => {
    const [salt, name] = JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8')) as [string, string, unknown]
    return options.tamper && name === 'given_name'
      ? Buffer.from(JSON.stringify([salt, name, 'Eve'])).toString('base64url')
      : disclosure
  })
  expect(chosen).toHaveLength(2)
  if (options.tamper) expect(forged).not.toEqual(chosen)
  const presentation = `${[issuerJwt, ...forged].join('~')}~`
  const keyId = instance.kmsKeyId
  if (!keyId) throw new Error('the holder key id is not on the record')
  const cnf = payloadOf(instance.compactSdJwtVc).cnf as { jwk: { crv: string } }
  const keyBinding = await wallet.agent.context.resolve(JwsService).createJwsCompact(wallet.agent.context, {
    keyId,
    payload: new JwtPayload({
      iat: Math.floor(Date.now() / 1000),
      aud: String(request.client_id),
      additionalClaims: {
        nonce: String(request.nonce),
        sd_hash: createHash('sha256').update(presentation).digest('base64url'),
      },
    }),
    protectedHeaderOptions: { typ: 'kb+jwt', alg: cnf.jwk.crv === 'P-256' ? 'ES256' : 'EdDSA' },
  })
  return `${presentation}${keyBinding}`
}

function payloadOf(compact: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(compact.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>
}

function wrongCode(code: string): string {
  return code.replace(/./, (digit) => String((Number(digit) + 1) % 10))
}
